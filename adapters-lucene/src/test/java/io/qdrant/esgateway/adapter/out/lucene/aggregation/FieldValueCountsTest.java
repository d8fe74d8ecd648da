package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.NumericUtils;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.lucene.cache.FieldValueCountsCache;

/**
 * Range counts from {@link FieldValueCounts} equal Lucene's own count of the same query: segments answered from their
 * entries beside segments that cannot (deletions, a multi-valued document, too many distinct values), missing values,
 * many ties, long and double ranges (−0.0, ±∞), bounds outside the values, empty ranges, the conjunction forms
 * {@link TermRangePages#ranged} recognises; entries only after {@link FieldValueCountsCache#USES_BEFORE_BUILD} uses,
 * released when their segment is merged away.
 */
class FieldValueCountsTest {
    private static final double[] DOUBLES = {-0.0, 0.0, -2.5, 1.25, 3.0, Double.NEGATIVE_INFINITY, 7.75, 1e300};

    /**
     * Segments of random sizes; {@code kinds} per segment: "plain", "multi" (some documents with two values),
     * "deletes", "wide" (every value distinct, more than the limit the test cache is given).
     */
    private static Directory index(Random random, String... kinds) throws IOException {
        Directory directory = new ByteBuffersDirectory();
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
        int id = 0;
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            for (String kind : kinds) {
                int size = 50 + random.nextInt(400);
                for (int i = 0; i < size; i++, id++) {
                    Document doc = new Document();
                    doc.add(new StringField("id", "d" + id, Field.Store.NO));
                    if (random.nextInt(12) != 0) {
                        long p = kind.equals("wide") ? 10_000 + id : random.nextInt(30);
                        doc.add(new LongPoint("p", p));
                        doc.add(new SortedNumericDocValuesField("p", p));
                        if (kind.equals("multi") && i % 9 == 0) {
                            doc.add(new LongPoint("p", p + 11));
                            doc.add(new SortedNumericDocValuesField("p", p + 11));
                        }
                    }
                    if (random.nextInt(10) != 0) {
                        double d = DOUBLES[random.nextInt(DOUBLES.length)];
                        doc.add(new DoublePoint("d", d));
                        doc.add(new SortedNumericDocValuesField("d", NumericUtils.doubleToSortableLong(d)));
                    }
                    writer.addDocument(doc);
                }
                if (kind.equals("deletes")) {
                    writer.deleteDocuments(new Term("id", "d" + (id - 1)), new Term("id", "d" + (id - 5)));
                }
                writer.flush();
            }
        }
        return directory;
    }

    private static List<Query> queries(Random random) {
        List<Query> queries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long a = random.nextInt(36) - 3;
            long b = random.nextInt(36) - 3;
            queries.add(LongPoint.newRangeQuery("p", a, b)); // a > b: empty
            queries.add(LongPoint.newRangeQuery("p", Math.min(a, b), Long.MAX_VALUE));
        }
        queries.add(LongPoint.newRangeQuery("p", Long.MIN_VALUE, Long.MAX_VALUE));
        queries.add(LongPoint.newRangeQuery("p", 10_000, 10_300));
        queries.add(LongPoint.newRangeQuery("p", 5, 5));
        queries.add(new BooleanQuery.Builder().add(LongPoint.newRangeQuery("p", 2, 20), Occur.FILTER)
                .add(LongPoint.newRangeQuery("p", 7, 40), Occur.MUST).build());
        queries.add(new ConstantScoreQuery(new BooleanQuery.Builder()
                .add(new MatchAllDocsQuery(), Occur.MUST).add(LongPoint.newRangeQuery("p", 0, 12), Occur.FILTER).build()));
        for (int i = 0; i < DOUBLES.length; i++) {
            for (int j = 0; j < DOUBLES.length; j++) {
                queries.add(DoublePoint.newRangeQuery("d", DOUBLES[i], DOUBLES[j]));
            }
        }
        queries.add(DoublePoint.newRangeQuery("d", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY));
        queries.add(DoublePoint.newRangeQuery("d", Math.nextUp(-0.0), 3.0));
        return queries;
    }

    @Test
    void countsEqualLuceneCountsOnMixedSegments() throws IOException {
        for (int seed = 1; seed <= 6; seed++) {
            Random random = new Random(seed);
            try (Directory directory = index(random, "plain", "multi", "plain", "deletes", "wide", "plain");
                 DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                FieldValueCountsCache cache = new FieldValueCountsCache(1 << 20);
                int answered = 0;
                for (Query query : queries(random)) {
                    TermRangePages.Shape shape = TermRangePages.rangeOnly(query).orElseThrow();
                    for (int use = 1; use <= FieldValueCountsCache.USES_BEFORE_BUILD + 1; use++) {
                        OptionalLong counted = cache.count(searcher, query, shape);
                        if (counted.isPresent()) {
                            answered++;
                            assertThat(counted.getAsLong()).as("seed %d, use %d: %s", seed, use, query)
                                    .isEqualTo(searcher.count(query));
                        }
                    }
                }
                assertThat(answered).as("seed %d: counts answered from entries", seed).isGreaterThan(100);
                assertThat(cache.size()).as("entries of p and d in the three plain segments (and markers)")
                        .isGreaterThanOrEqualTo(6);
            }
        }
    }

    @Test
    void onlySegmentsWithoutDeletionsOneValueAndFewDistinctValuesAnswer() throws IOException {
        try (Directory directory = index(new Random(3), "plain", "multi", "deletes", "wide");
             DirectoryReader reader = DirectoryReader.open(directory)) {
            var leaves = reader.leaves();
            assertThat(FieldValueCounts.build(leaves.get(0).reader(), "p", 1_000).usable()).isTrue();
            assertThat(FieldValueCounts.build(leaves.get(1).reader(), "p", 1_000).usable()).as("multi-valued").isFalse();
            assertThat(FieldValueCounts.build(leaves.get(3).reader(), "p", 40).usable()).as("too many distinct")
                    .isFalse();
            assertThat(FieldValueCounts.build(leaves.get(3).reader(), "p", 1_000).usable()).isTrue();
            assertThat(FieldValueCounts.build(leaves.get(0).reader(), "id", 1_000).usable()).as("no points").isFalse();
            assertThat(FieldValueCounts.build(leaves.get(0).reader(), "absent", 1_000).count(0, 10)).isZero();
            FieldValueCountsCache cache = new FieldValueCountsCache(1 << 20);
            for (int use = 0; use < FieldValueCountsCache.USES_BEFORE_BUILD - 1; use++) {
                assertThat(cache.get(leaves.get(0).reader(), "p")).as("not built before its uses").isNull();
            }
            assertThat(cache.get(leaves.get(0).reader(), "p")).isNotNull();
            assertThat(cache.builds()).isEqualTo(1);
            assertThat(cache.get(leaves.get(0).reader(), "p")).as("held").isNotNull();
            assertThat(cache.builds()).as("not rebuilt while held").isEqualTo(1);
        }
    }

    @Test
    void entriesAreReleasedWhenTheirSegmentIsMergedAway() throws IOException {
        Directory directory = index(new Random(9), "plain", "plain", "plain");
        FieldValueCountsCache cache = new FieldValueCountsCache(1 << 20);
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            Query query = LongPoint.newRangeQuery("p", 3, 17);
            TermRangePages.Shape shape = TermRangePages.rangeOnly(query).orElseThrow();
            for (int use = 0; use < FieldValueCountsCache.USES_BEFORE_BUILD; use++) {
                cache.count(searcher, query, shape);
            }
            assertThat(cache.size()).isEqualTo(3);
        }
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            writer.forceMerge(1);
        }
        assertThat(cache.size()).as("the closed cores' entries").isZero();
        assertThat(cache.bytes()).isZero();
        directory.close();
    }

    @Test
    void theBudgetBoundsTheEntries() throws IOException {
        try (Directory directory = index(new Random(4), "wide", "wide", "wide", "wide");
             DirectoryReader reader = DirectoryReader.open(directory)) {
            FieldValueCountsCache cache = new FieldValueCountsCache(2 * (FieldValueCounts.OVERHEAD_BYTES + 450 * 12));
            for (var leaf : reader.leaves()) {
                for (int use = 0; use < FieldValueCountsCache.USES_BEFORE_BUILD; use++) {
                    cache.get(leaf.reader(), "p");
                }
            }
            assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
            assertThat(cache.size()).as("not every segment's entry").isBetween(1, 3);
        }
    }
}
