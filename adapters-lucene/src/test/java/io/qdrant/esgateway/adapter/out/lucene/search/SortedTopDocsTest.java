package io.qdrant.esgateway.adapter.out.lucene.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryCachingPolicy;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedTopDocs} must answer exactly what one exact-total {@link TopFieldCollectorManager} pass answers: the
 * same documents in the same order with the same sort values, and the same total with the same relation — over
 * several segments with deletions, multi-valued and missing sort values, many ties, {@code search_after} cursors,
 * and with and without the query cache.
 */
class SortedTopDocsTest {
    private static final int DOCS = 6_000;

    private Directory directory;
    private DirectoryReader reader;

    @BeforeEach
    void index() throws IOException {
        index(true);
    }

    private void index(boolean deletions) throws IOException {
        if (reader != null) {
            close();
        }
        directory = new ByteBuffersDirectory();
        Random random = new Random(7);
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            for (int i = 0; i < DOCS; i++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(i), Field.Store.NO));
                doc.add(new StringField("c", "c" + random.nextInt(5), Field.Store.NO));
                int values = random.nextInt(10) == 0 ? 0 : random.nextInt(8) == 0 ? 2 : 1; // some missing, some multi
                for (int v = 0; v < values; v++) {
                    long price = 1 + random.nextInt(50); // many ties
                    doc.add(new LongPoint("p", price));
                    doc.add(new SortedNumericDocValuesField("p", price));
                }
                doc.add(new LongPoint("r", i));
                doc.add(new SortedNumericDocValuesField("r", i));
                doc.add(new SortedNumericDocValuesField("dv_only", random.nextInt(50)));
                writer.addDocument(doc);
                if (i % 1_000 == 999) {
                    writer.commit(); // several segments
                }
            }
            for (int i = 0; deletions && i < DOCS; i += 13) {
                writer.deleteDocuments(new Term("id", Integer.toString(i)));
            }
        }
        reader = DirectoryReader.open(directory);
    }

    @AfterEach
    void close() throws IOException {
        reader.close();
        directory.close();
    }

    private static SortedNumericSortField numeric(String field, boolean reverse, long missing) {
        SortedNumericSortField sort = new SortedNumericSortField(field, SortField.Type.LONG, reverse,
                reverse ? SortedNumericSelector.Type.MAX : SortedNumericSelector.Type.MIN);
        sort.setMissingValue(missing);
        return sort;
    }

    private List<Sort> sorts() {
        return List.of(
                new Sort(numeric("p", true, Long.MIN_VALUE), numeric("r", false, Long.MAX_VALUE)),
                new Sort(numeric("p", false, Long.MAX_VALUE), numeric("r", false, Long.MAX_VALUE)),
                new Sort(numeric("p", true, Long.MAX_VALUE), numeric("r", true, Long.MAX_VALUE)), // missing first
                new Sort(numeric("p", false, 25L)), // a missing value in the middle; ties by doc id
                new Sort(numeric("r", true, Long.MIN_VALUE)));
    }

    private static List<Query> queries() {
        return List.of(
                new MatchAllDocsQuery(),
                new TermQuery(new Term("c", "c2")),
                new BooleanQuery.Builder().add(new TermQuery(new Term("c", "c1")), Occur.FILTER)
                        .add(LongPoint.newRangeQuery("p", 10, 40), Occur.FILTER).build(),
                LongPoint.newRangeQuery("p", 49, 60),
                LongPoint.newRangeQuery("r", 100, 4_000),
                new TermQuery(new Term("c", "none")));
    }

    private static void assertSame(TopDocs expected, TopDocs actual, String what) {
        assertThat(actual.totalHits).as(what + " total").isEqualTo(expected.totalHits);
        assertThat(actual.scoreDocs).as(what + " hits").hasSameSizeAs(expected.scoreDocs);
        for (int i = 0; i < expected.scoreDocs.length; i++) {
            assertThat(actual.scoreDocs[i].doc).as(what + " doc " + i).isEqualTo(expected.scoreDocs[i].doc);
            assertThat(((FieldDoc) actual.scoreDocs[i]).fields).as(what + " sort values " + i)
                    .isEqualTo(((FieldDoc) expected.scoreDocs[i]).fields);
        }
    }

    private void assertEquivalent(IndexSearcher searcher) throws IOException {
        Random random = new Random(11);
        int checked = 0;
        for (Sort sort : sorts()) {
            for (Query query : queries()) {
                TopDocs all = searcher.search(query, new TopFieldCollectorManager(sort, DOCS, null, Integer.MAX_VALUE));
                List<FieldDoc> cursors = new ArrayList<>();
                cursors.add(null);
                for (int k = 0; k < 4 && all.scoreDocs.length > 0; k++) {
                    ScoreDoc at = all.scoreDocs[random.nextInt(all.scoreDocs.length)];
                    // as LuceneSearch builds it from rendered values: after every document with these values
                    cursors.add(new FieldDoc(Integer.MAX_VALUE, Float.NaN, ((FieldDoc) at).fields));
                }
                for (FieldDoc after : cursors) {
                    for (int n : new int[] {1, 20, 100}) {
                        String what = sort + " " + query + " after " + (after == null ? "-" : List.of(after.fields))
                                + " n " + n;
                        TopDocs expected = searcher.search(query,
                                new TopFieldCollectorManager(sort, n, after, Integer.MAX_VALUE));
                        // every countable query takes the counted, pruned path here, whatever its number of matches
                        assertSame(expected, SortedTopDocs.search(searcher, query, sort, n, after, Integer.MAX_VALUE, 0),
                                what);
                        assertSame(expected, SortedTopDocs.search(searcher, query, sort, n, after, Integer.MAX_VALUE),
                                what + " (default minimum)");
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(300);
    }

    @Test
    void answersAsOneExactPassWithoutQueryCache() throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        assertEquivalent(searcher);
    }

    private static IndexSearcher cachingEverything(DirectoryReader reader) {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(new LRUQueryCache(10_000, 64L << 20, leaf -> true, Float.POSITIVE_INFINITY));
        searcher.setQueryCachingPolicy(new QueryCachingPolicy() {
            @Override
            public void onUse(Query query) {
            }

            @Override
            public boolean shouldCache(Query query) {
                return true;
            }
        });
        return searcher;
    }

    @Test
    void answersAsOneExactPassWithEveryQueryCached() throws IOException {
        assertEquivalent(cachingEverything(reader));
        index(false);
        IndexSearcher searcher = cachingEverything(reader);
        assertEquivalent(searcher);
        // without deletions a cached conjunction counts from the cache: the counted path ran for it
        assertThat(SortedTopDocs.countWithoutVisiting(searcher, queries().get(2)))
                .hasValue(searcher.count(queries().get(2)));
    }

    @Test
    void answersAsOneExactPassWithoutDeletions() throws IOException {
        index(false); // term and single-valued range counts come from the index: the counted path runs
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        assertEquivalent(searcher);
    }

    @Test
    void countsWithoutVisitingOnlyWhereEverySegmentCan() throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        assertThat(SortedTopDocs.countWithoutVisiting(searcher, new MatchAllDocsQuery()))
                .hasValue(searcher.count(new MatchAllDocsQuery()));
        // deletions: a term's document frequency is no longer its count
        assertThat(SortedTopDocs.countWithoutVisiting(searcher, new TermQuery(new Term("c", "c2")))).isEmpty();
        Query conjunction = queries().get(2);
        assertThat(SortedTopDocs.countWithoutVisiting(searcher, conjunction)).isEmpty();
        index(false);
        searcher = new IndexSearcher(reader);
        searcher.setQueryCache(null);
        for (Query query : List.of(new TermQuery(new Term("c", "c2")), LongPoint.newRangeQuery("r", 100, 4_000))) {
            assertThat(SortedTopDocs.countWithoutVisiting(searcher, query)).as(query.toString())
                    .hasValue(searcher.count(query));
        }
    }

    /** A query whose rewrite is counted (as a kNN section's rewrite runs the vector search). */
    private static final class CountedRewrite extends Query {
        int rewrites;

        @Override
        public Query rewrite(IndexSearcher searcher) {
            rewrites++;
            return new MatchAllDocsQuery();
        }

        @Override
        public String toString(String field) {
            return "counted";
        }

        @Override
        public void visit(org.apache.lucene.search.QueryVisitor visitor) {
        }

        @Override
        public boolean equals(Object other) {
            return other == this;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    @Test
    void rewritesTheQueryOnceForBothPasses() throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        CountedRewrite query = new CountedRewrite();
        TopDocs top = SortedTopDocs.search(searcher, query, sorts().get(0), 20, null, Integer.MAX_VALUE, 0);
        assertThat(top.totalHits.value()).isEqualTo(reader.numDocs());
        assertThat(query.rewrites).isEqualTo(1);
    }

    @Test
    void anApproximateOrDisabledTotalIsTheSinglePassAnswer() throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        Sort sort = sorts().get(0);
        Query query = new TermQuery(new Term("c", "c3"));
        for (int threshold : new int[] {0, 10, 1_000, 100_000}) {
            assertSame(searcher.search(query, new TopFieldCollectorManager(sort, 20, null, threshold)),
                    SortedTopDocs.search(searcher, query, sort, 20, null, threshold), "threshold " + threshold);
        }
    }

    @Test
    void prunesOnlyPlainNumericSortsOnFieldsWithPoints() {
        IndexSearcher searcher = new IndexSearcher(reader);
        assertThat(SortedTopDocs.pointPrunable(searcher, numeric("p", true, Long.MIN_VALUE))).isTrue();
        assertThat(SortedTopDocs.pointPrunable(searcher, numeric("dv_only", true, Long.MIN_VALUE))).isFalse();
        assertThat(SortedTopDocs.pointPrunable(searcher, numeric("absent", true, Long.MIN_VALUE))).isFalse();
        assertThat(SortedTopDocs.pointPrunable(searcher, SortField.FIELD_SCORE)).isFalse();
        assertThat(SortedTopDocs.pointPrunable(searcher, SortField.FIELD_DOC)).isFalse();
        assertThat(SortedTopDocs.pointPrunable(searcher, new SortedSetSortField("c", false))).isFalse();
    }
}
