package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * Remembered conjunction counts ({@link TermConjunctionCounts}) equal Lucene's count of the same query, before and
 * after deletions, from an entry or computed; only segments without deletions keep entries.
 */
class TermConjunctionCountsTest {

    private static Query term(String field, int value) {
        return new TermQuery(new Term(field, Integer.toString(value)));
    }

    private static Query randomConjunction(Random r) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.add(term("a", r.nextInt(3)), r.nextBoolean() ? Occur.MUST : Occur.FILTER);
        Query second = term("b", r.nextInt(5));
        b.add(r.nextBoolean() ? new ConstantScoreQuery(second) : new BoostQuery(second, 2f), Occur.FILTER);
        if (r.nextInt(3) == 0) {
            b.add(term("c", r.nextInt(2)), Occur.FILTER);
        }
        if (r.nextInt(4) == 0) {
            b.add(new MatchAllDocsQuery(), Occur.FILTER);
        }
        return b.build();
    }

    @Test
    void countsEqualLucenesBeforeAndAfterDeletionsAndOnlyPlainSegmentsKeepEntries() throws IOException {
        Random random = new Random(17);
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer())
                     .setMergePolicy(NoMergePolicy.INSTANCE))) {
            int id = 0;
            for (int segment = 0; segment < 4; segment++) {
                for (int i = 0; i < 400; i++, id++) {
                    Document doc = new Document();
                    doc.add(new StringField("id", Integer.toString(id), Field.Store.NO));
                    doc.add(new StringField("a", Integer.toString(random.nextInt(3)), Field.Store.NO));
                    if (random.nextInt(5) != 0) {
                        doc.add(new StringField("b", Integer.toString(random.nextInt(5)), Field.Store.NO));
                    }
                    doc.add(new StringField("c", Integer.toString(random.nextInt(2)), Field.Store.NO));
                    doc.add(new LongPoint("n", random.nextInt(100)));
                    writer.addDocument(doc);
                }
                writer.flush();
            }
            writer.deleteDocuments(new Term("id", "5"), new Term("id", "1203"));
            TermConjunctionCounts counts = new TermConjunctionCounts(1_000);
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                assertThat(reader.leaves()).hasSize(4);
                for (int round = 0; round < 2; round++) {
                    Random queries = new Random(3);
                    for (int q = 0; q < 200; q++) {
                        Query query = randomConjunction(queries);
                        assertThat(counts.count(searcher, query)).as("%s", query).hasValue(searcher.count(query));
                    }
                }
                assertThat(counts.size()).as("entries of the two segments without deletions").isPositive();
                long computed = counts.computed();
                assertThat(counts.count(searcher, randomConjunction(new Random(3)))).isPresent();
                assertThat(counts.computed()).as("read from its entries the second time").isEqualTo(computed);
            }
            writer.deleteDocuments(new Term("a", "1"), new Term("id", "450"));
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                Random queries = new Random(3);
                for (int q = 0; q < 200; q++) {
                    Query query = randomConjunction(queries);
                    assertThat(counts.count(searcher, query)).as("after deletions: %s", query)
                            .hasValue(searcher.count(query));
                }
            }
        }
    }

    @Test
    void onlyConjunctionsOfTwoOrMoreTermsAreCounted() {
        assertThat(TermConjunctionCounts.terms(term("a", 1))).isEmpty();
        assertThat(TermConjunctionCounts.terms(new BooleanQuery.Builder().add(term("a", 1), Occur.MUST)
                .add(term("a", 1), Occur.FILTER).build())).as("the same term twice is one term").isEmpty();
        assertThat(TermConjunctionCounts.terms(new BooleanQuery.Builder().add(term("a", 1), Occur.MUST)
                .add(term("b", 2), Occur.SHOULD).build())).isEmpty();
        assertThat(TermConjunctionCounts.terms(new BooleanQuery.Builder().add(term("a", 1), Occur.MUST)
                .add(term("b", 2), Occur.MUST_NOT).build())).isEmpty();
        assertThat(TermConjunctionCounts.terms(new BooleanQuery.Builder().add(term("a", 1), Occur.MUST)
                .add(LongPoint.newRangeQuery("n", 1, 5), Occur.FILTER).build())).isEmpty();
        assertThat(TermConjunctionCounts.terms(new BooleanQuery.Builder().add(term("b", 2), Occur.FILTER)
                .add(new ConstantScoreQuery(term("a", 1)), Occur.MUST).build()))
                .contains(List.of(new Term("a", "1"), new Term("b", "2")));
    }
}
