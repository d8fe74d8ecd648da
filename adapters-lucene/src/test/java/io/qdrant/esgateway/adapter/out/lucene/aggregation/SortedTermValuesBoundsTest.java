package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedTermValues}' bounds are the plain answers — the first position at or above / above a value, checked
 * against a scan of the entry — for entries of many sizes (0, 1, 31, 32, 33, 64, 65, …) with long runs of equal
 * values, for every value of the entry and the gaps beside it, 0 and {@code Long.MIN_VALUE}/{@code MAX_VALUE}.
 */
class SortedTermValuesBoundsTest {
    private static final int[] SIZES = {0, 1, 2, 31, 32, 33, 63, 64, 65, 95, 96, 97, 200, 1_000, 4_099};

    @Test
    void boundsEqualAScanOfTheEntry() throws IOException {
        Random random = new Random(11);
        for (int spread : new int[] {1, 3, 40, 5_000}) {
            try (Directory directory = new ByteBuffersDirectory()) {
                try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
                    for (int size : SIZES) {
                        for (int i = 0; i < size; i++) {
                            Document doc = new Document();
                            doc.add(new StringField("t", "s" + size, Field.Store.NO));
                            long v = random.nextInt(spread) * 3L - 7;
                            doc.add(new LongPoint("v", v));
                            doc.add(new SortedNumericDocValuesField("v", v));
                            writer.addDocument(doc);
                        }
                    }
                    writer.forceMerge(1);
                }
                try (DirectoryReader reader = DirectoryReader.open(directory)) {
                    LeafReader leaf = reader.leaves().get(0).reader();
                    for (int size : SIZES) {
                        SortedTermValues entry = SortedTermValues.build(leaf, new Term("t", "s" + size), "v", 1 << 20);
                        assertThat(entry.size()).isEqualTo(size);
                        for (int p = 0; p < size; p++) { // each value, and the gaps beside it (values are 3 apart)
                            if (p == 0 || entry.value(p) != entry.value(p - 1)) {
                                for (long v = entry.value(p) - 1; v <= entry.value(p) + 1; v++) {
                                    assertBounds(entry, v, spread, size);
                                }
                            }
                        }
                        assertBounds(entry, 0, spread, size);
                        assertBounds(entry, Long.MIN_VALUE, spread, size);
                        assertBounds(entry, Long.MAX_VALUE, spread, size);
                    }
                }
            }
        }
    }

    private static void assertBounds(SortedTermValues entry, long value, int spread, int size) {
        int atOrAbove = entry.size();
        int above = entry.size();
        for (int p = entry.size() - 1; p >= 0; p--) {
            if (entry.value(p) >= value) {
                atOrAbove = p;
            }
            if (entry.value(p) > value) {
                above = p;
            }
        }
        assertThat(entry.lowerBound(value)).as("lowerBound(%d), size %d, spread %d", value, size, spread)
                .isEqualTo(atOrAbove);
        assertThat(entry.upperBound(value)).as("upperBound(%d), size %d, spread %d", value, size, spread)
                .isEqualTo(above);
    }
}
