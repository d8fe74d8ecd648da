package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FloatPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
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
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.SortedSetSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;

/**
 * {@link TermRangePages} must answer exactly what one {@link TopFieldCollectorManager} pass over the whole query
 * answers (the general path): the same documents in the same order with the same sort values and the same total
 * (rendered as {@code LuceneSearch} renders it for a finite threshold) — over random segments, with and without
 * deletions in some of them, missing and multi-valued values, heavy ties on both sort keys, ascending and descending
 * long and double first keys, several secondary keys, {@code search_after} cursors inside and outside the range, and
 * every query form {@code QueryTranslator} builds for a term AND range filter.
 */
class TermRangePagesTest {
    private static final int DOCS = 5_000;
    private static final String[] CATEGORIES = {"c0", "c1", "c2", "c3"};

    private Directory directory;
    private DirectoryReader reader;

    /**
     * Random segments (random flush points, no merges); {@code c3} documents of the third segment have two prices
     * (its c3 entry is unusable there); ~8 % of the documents have no price; with {@code deletions} the documents of
     * some segments are deleted in part.
     */
    private void index(long seed, boolean deletions) throws IOException {
        if (reader != null) {
            close();
        }
        directory = new ByteBuffersDirectory();
        Random random = new Random(seed);
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
        try (IndexWriter writer = new IndexWriter(directory, config)) {
            int segment = 0;
            for (int i = 0; i < DOCS; i++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(i), Field.Store.NO));
                String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
                doc.add(new StringField("c", category, Field.Store.NO));
                doc.add(new SortedSetDocValuesField("c", new BytesRef(category)));
                if (random.nextInt(12) != 0) {
                    long price = 1 + random.nextInt(60); // many ties
                    doc.add(new LongPoint("p", price));
                    doc.add(new SortedNumericDocValuesField("p", price));
                    if (segment == 2 && category.equals("c3")) {
                        doc.add(new LongPoint("p", price + 7));
                        doc.add(new SortedNumericDocValuesField("p", price + 7));
                    }
                    double d = (random.nextInt(41) - 20) / 4.0; // negative, zero, ties
                    if (d == 0 && random.nextBoolean()) {
                        d = -0.0;
                    }
                    doc.add(new DoublePoint("d", d));
                    doc.add(new SortedNumericDocValuesField("d", NumericUtils.doubleToSortableLong(d)));
                }
                doc.add(new SortedNumericDocValuesField("r", random.nextInt(10))); // ties on the second key too
                writer.addDocument(doc);
                if (random.nextInt(600) == 0) {
                    writer.commit();
                    segment++;
                }
            }
            if (deletions) {
                for (int i = 0; i < DOCS / 3; i += 1 + random.nextInt(7)) { // the first segments only
                    writer.deleteDocuments(new Term("id", Integer.toString(i)));
                }
            }
        }
        reader = DirectoryReader.open(directory);
        assertThat(reader.leaves().size()).isGreaterThan(3);
    }

    @AfterEach
    void close() throws IOException {
        if (reader != null) {
            reader.close();
        }
        if (directory != null) {
            directory.close();
        }
        reader = null;
    }

    private static SortedNumericSortField numeric(String field, SortField.Type type, boolean reverse) {
        SortedNumericSortField sort = new SortedNumericSortField(field, type, reverse,
                reverse ? SortedNumericSelector.Type.MAX : SortedNumericSelector.Type.MIN);
        // ES's "missing last" in the sort's direction
        sort.setMissingValue(type == SortField.Type.LONG ? (Object) (reverse ? Long.MIN_VALUE : Long.MAX_VALUE)
                : (Object) (reverse ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY));
        return sort;
    }

    private static List<Sort> sorts() {
        SortField rAsc = numeric("r", SortField.Type.LONG, false);
        SortField rDesc = numeric("r", SortField.Type.LONG, true);
        return List.of(
                new Sort(numeric("p", SortField.Type.LONG, true), rAsc),
                new Sort(numeric("p", SortField.Type.LONG, false), rDesc),
                new Sort(numeric("p", SortField.Type.LONG, true)), // ties by doc id
                new Sort(numeric("p", SortField.Type.LONG, false), new SortField(null, SortField.Type.DOC, true)),
                new Sort(numeric("p", SortField.Type.LONG, true), rAsc, new SortedSetSortField("c", true)),
                new Sort(numeric("d", SortField.Type.DOUBLE, false), rAsc),
                new Sort(numeric("d", SortField.Type.DOUBLE, true)));
    }

    private static Query range(String field, Random random) {
        if (field.equals("d")) {
            double lo = (random.nextInt(50) - 25) / 4.0;
            return DoublePoint.newRangeQuery("d", lo, lo + random.nextInt(30) / 4.0);
        }
        long lo = random.nextInt(70) - 5;
        return LongPoint.newRangeQuery("p", lo, lo + random.nextInt(40) - 2); // sometimes empty
    }

    /** The forms of "term AND range" the translator builds, and a few that must not be recognised. */
    private static List<Query> queries(String field, Random random) {
        String category = random.nextInt(10) == 0 ? "none" : CATEGORIES[random.nextInt(CATEGORIES.length)];
        TermQuery term = new TermQuery(new Term("c", category));
        Query range = range(field, random);
        Query filter = new BooleanQuery.Builder().add(term, Occur.FILTER).add(range, Occur.FILTER).build();
        return List.of(
                filter,
                new BooleanQuery.Builder().add(term, Occur.MUST).add(range, Occur.FILTER).build(),
                new ConstantScoreQuery(filter),
                new BoostQuery(filter, 2f),
                // a post_filter with a second range: Bool(must: query, filter: post_filter)
                new BooleanQuery.Builder().add(filter, Occur.MUST).add(range(field, random), Occur.FILTER).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(new MatchAllDocsQuery(), Occur.FILTER).build(),
                term);
    }

    private record Rendered(long value, boolean exact) {
    }

    /** As LuceneSearch renders a total for a threshold. */
    private static Rendered render(TotalHits total, int threshold) {
        if (threshold == Integer.MAX_VALUE) {
            return new Rendered(total.value(), total.relation() == TotalHits.Relation.EQUAL_TO);
        }
        return total.relation() == TotalHits.Relation.EQUAL_TO && total.value() <= threshold
                ? new Rendered(total.value(), true) : new Rendered(threshold, false);
    }

    private static void assertSame(TopDocs expected, TopDocs actual, int threshold, String what) {
        assertThat(render(actual.totalHits, threshold)).as(what + " total")
                .isEqualTo(render(expected.totalHits, threshold));
        if (threshold == Integer.MAX_VALUE) {
            assertThat(actual.totalHits).as(what + " total").isEqualTo(expected.totalHits);
        }
        assertThat(actual.scoreDocs).as(what + " hits").hasSameSizeAs(expected.scoreDocs);
        for (int i = 0; i < expected.scoreDocs.length; i++) {
            assertThat(actual.scoreDocs[i].doc).as(what + " doc " + i).isEqualTo(expected.scoreDocs[i].doc);
            assertThat(((FieldDoc) actual.scoreDocs[i]).fields).as(what + " sort values " + i)
                    .isEqualTo(((FieldDoc) expected.scoreDocs[i]).fields);
        }
    }

    /** Checks random requests; returns how many the fast path answered. */
    private int assertEquivalent(IndexSearcher searcher, SortedTermValuesCache cache, long seed, int rounds)
            throws IOException {
        Random random = new Random(seed);
        int answered = 0;
        int counts = 0;
        for (int round = 0; round < rounds; round++) {
            Sort sort = sorts().get(random.nextInt(sorts().size()));
            SortField first = sort.getSort()[0];
            for (Query query : queries(first.getField(), random)) {
                java.util.OptionalLong counted = TermRangePages.count(searcher, query, cache);
                if (counted.isPresent()) {
                    assertThat(counted.getAsLong()).as("count " + query).isEqualTo(searcher.count(query));
                    counts++;
                }
                TopDocs all = searcher.search(query, new TopFieldCollectorManager(sort, DOCS, null, Integer.MAX_VALUE));
                List<FieldDoc> cursors = new ArrayList<>();
                cursors.add(null);
                for (int k = 0; k < 2 && all.scoreDocs.length > 0; k++) {
                    ScoreDoc at = all.scoreDocs[random.nextInt(all.scoreDocs.length)];
                    // as LuceneSearch builds it from rendered values: after every document with these values
                    cursors.add(new FieldDoc(Integer.MAX_VALUE, Float.NaN, ((FieldDoc) at).fields.clone()));
                }
                // a cursor whose first value is outside the range or the type's extreme (the missing substitute)
                Object[] outside = new Object[sort.getSort().length];
                for (int i = 0; i < outside.length; i++) {
                    SortField key = sort.getSort()[i];
                    outside[i] = key.getType() == SortField.Type.DOC ? (Object) random.nextInt(DOCS)
                            : key instanceof SortedSetSortField ? new BytesRef("c" + random.nextInt(5))
                            : ((SortedNumericSortField) key).getNumericType() == SortField.Type.DOUBLE
                                ? (Object) (random.nextBoolean() ? Double.POSITIVE_INFINITY : (random.nextInt(60) - 30) / 4.0)
                                : (Object) (random.nextInt(4) == 0 ? Long.MIN_VALUE : random.nextInt(4) == 0
                                        ? Long.MAX_VALUE : (long) random.nextInt(80) - 10);
                }
                cursors.add(new FieldDoc(Integer.MAX_VALUE, Float.NaN, outside));
                for (FieldDoc after : cursors) {
                    int n = new int[] {1, 7, 20, 200}[random.nextInt(4)];
                    int threshold = random.nextInt(3) == 0
                            ? new int[] {0, 5, 100, 1_000}[random.nextInt(4)] : Integer.MAX_VALUE;
                    String what = sort + " " + query + " after " + (after == null ? "-" : List.of(after.fields))
                            + " n " + n + " threshold " + threshold;
                    TopDocs expected = searcher.search(query, new TopFieldCollectorManager(sort, n, after, threshold));
                    Optional<TopDocs> actual = TermRangePages.search(searcher, query, sort, n, after, threshold, cache);
                    if (actual.isPresent()) {
                        assertSame(expected, actual.get(), threshold, what);
                        answered++;
                    }
                }
            }
        }
        assertThat(counts).as("counts answered from entries").isGreaterThan(rounds);
        return answered;
    }

    @Test
    void answersAsTheGeneralPathWithoutDeletions() throws IOException {
        for (long seed = 1; seed <= 3; seed++) {
            index(seed, false);
            SortedTermValuesCache cache = new SortedTermValuesCache(64L << 20);
            int answered = assertEquivalent(new IndexSearcher(reader), cache, seed, 40);
            assertThat(answered).as("requests the fast path answered").isGreaterThan(200);
            assertThat(cache.size()).isPositive();
        }
    }

    @Test
    void answersAsTheGeneralPathWithDeletionsInSomeSegments() throws IOException {
        for (long seed = 4; seed <= 6; seed++) {
            index(seed, true);
            assertThat(reader.leaves().stream().filter(l -> l.reader().getLiveDocs() != null)).isNotEmpty();
            assertThat(reader.leaves().stream().filter(l -> l.reader().getLiveDocs() == null)).isNotEmpty();
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            int answered = assertEquivalent(searcher, new SortedTermValuesCache(64L << 20), seed, 40);
            assertThat(answered).as("requests the fast path answered").isGreaterThan(200);
        }
    }

    @Test
    void answersAsTheGeneralPathWhenTheBudgetHoldsFewEntries() throws IOException {
        index(8, false);
        // a quarter of the budget holds ~100 documents: most terms are too large and answered by the general path
        SortedTermValuesCache cache = new SortedTermValuesCache(4_800);
        assertEquivalent(new IndexSearcher(reader), cache, 8, 40);
        assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
    }

    @Test
    void aMultiValuedSegmentIsAnsweredByTheGeneralPath() throws IOException {
        index(9, false);
        SortedTermValuesCache cache = new SortedTermValuesCache(64L << 20);
        Term c3 = new Term("c", "c3");
        SortedTermValues multi = cache.get(reader.leaves().get(2).reader(), c3, "p");
        assertThat(multi.usable()).isFalse();
        SortedTermValues single = cache.get(reader.leaves().get(0).reader(), c3, "p");
        assertThat(single.usable()).isTrue();
        assertThat(single.missing()).isPositive();
        // a field with doc values but no points, and a field with 4-byte points, are not usable
        assertThat(cache.get(reader.leaves().get(0).reader(), c3, "r").usable()).isFalse();
        Query query = new BooleanQuery.Builder().add(new TermQuery(c3), Occur.FILTER)
                .add(LongPoint.newRangeQuery("p", 10, 50), Occur.FILTER).build();
        Sort sort = sorts().get(0);
        IndexSearcher searcher = new IndexSearcher(reader);
        TopDocs expected = searcher.search(query, new TopFieldCollectorManager(sort, 20, null, Integer.MAX_VALUE));
        assertSame(expected, TermRangePages.search(searcher, query, sort, 20, null, Integer.MAX_VALUE, cache)
                .orElseThrow(), Integer.MAX_VALUE, "c3");
        // a term alone, where every segment has documents of the term without a price (they match and sort by the
        // missing value): no segment answers from its entry
        assertThat(TermRangePages.search(searcher, new TermQuery(c3), sort, 20, null, Integer.MAX_VALUE, cache))
                .isEmpty();
    }

    @Test
    void recognisesOnlyATermAndRangesOnTheFirstSortField() {
        SortField price = numeric("p", SortField.Type.LONG, true);
        TermQuery term = new TermQuery(new Term("c", "c1"));
        Query range = LongPoint.newRangeQuery("p", 5, 30);
        assertThat(TermRangePages.shape(new BooleanQuery.Builder().add(term, Occur.FILTER).add(range, Occur.FILTER)
                .add(LongPoint.newRangeQuery("p", 10, 40), Occur.FILTER).build(), price))
                .hasValue(new TermRangePages.Shape(term.getTerm(), "p", true, 10, 30));
        assertThat(TermRangePages.shape(term, price)).hasValue(new TermRangePages.Shape(term.getTerm(), "p", false,
                Long.MIN_VALUE, Long.MAX_VALUE));
        List<Query> others = List.of(
                new BooleanQuery.Builder().add(term, Occur.SHOULD).add(range, Occur.FILTER).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(range, Occur.MUST_NOT).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(new TermQuery(new Term("c", "c2")),
                        Occur.FILTER).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(LongPoint.newRangeQuery("r", 1, 2),
                        Occur.FILTER).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(DoublePoint.newRangeQuery("p", 1, 2),
                        Occur.FILTER).build(),
                new BooleanQuery.Builder().add(term, Occur.FILTER).add(LongPoint.newSetQuery("p", 1, 2),
                        Occur.FILTER).build(),
                new BooleanQuery.Builder().add(new BooleanQuery.Builder().build(), Occur.FILTER)
                        .add(term, Occur.FILTER).build(),
                range,
                new MatchAllDocsQuery());
        for (Query other : others) {
            assertThat(TermRangePages.shape(other, price)).as(other.toString()).isEmpty();
        }
        Query conjunction = new BooleanQuery.Builder().add(term, Occur.FILTER).add(range, Occur.FILTER).build();
        assertThat(TermRangePages.shape(conjunction, numeric("p", SortField.Type.DOUBLE, true))).isEmpty();
        assertThat(TermRangePages.shape(conjunction, new SortedNumericSortField("p", SortField.Type.FLOAT))).isEmpty();
        assertThat(TermRangePages.shape(new BooleanQuery.Builder().add(term, Occur.FILTER)
                .add(FloatPoint.newRangeQuery("p", 1, 2), Occur.FILTER).build(), price)).isEmpty();
        assertThat(TermRangePages.shape(conjunction, new SortField("p", SortField.Type.LONG))).isEmpty();
        assertThat(TermRangePages.shape(conjunction, SortField.FIELD_SCORE)).isEmpty();

        // a count needs a term and ranges on one field, whatever the sort
        assertThat(TermRangePages.ranged(new BooleanQuery.Builder().add(new ConstantScoreQuery(term), Occur.FILTER)
                .add(DoublePoint.newRangeQuery("d", -1, 2), Occur.FILTER).build()))
                .hasValue(new TermRangePages.Shape(term.getTerm(), "d", true,
                        NumericUtils.doubleToSortableLong(-1), NumericUtils.doubleToSortableLong(2)));
        assertThat(TermRangePages.ranged(term)).isEmpty();
        assertThat(TermRangePages.ranged(range).orElseThrow().term()).isNull(); // a range alone: no term to count by
        assertThat(TermRangePages.ranged(new BooleanQuery.Builder().add(term, Occur.FILTER).add(range, Occur.FILTER)
                .add(LongPoint.newRangeQuery("r", 1, 2), Occur.FILTER).build())).isEmpty();
        for (Query other : others.subList(0, 3)) {
            assertThat(TermRangePages.ranged(other)).as(other.toString()).isEmpty();
        }
    }

    @Test
    void countsAsLuceneWhereSomeSegmentsAreGeneral() throws IOException {
        index(11, true);
        IndexSearcher searcher = new IndexSearcher(reader);
        SortedTermValuesCache cache = new SortedTermValuesCache(64L << 20);
        Random random = new Random(11);
        int counted = 0;
        for (int i = 0; i < 300; i++) {
            String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
            String field = random.nextBoolean() ? "p" : "d";
            Query query = new BooleanQuery.Builder().add(new TermQuery(new Term("c", category)), Occur.FILTER)
                    .add(range(field, random), Occur.FILTER).build();
            java.util.OptionalLong count = TermRangePages.count(searcher, query, cache);
            if (count.isPresent()) {
                assertThat(count.getAsLong()).as(query.toString()).isEqualTo(searcher.count(query));
                counted++;
            }
        }
        assertThat(counted).isGreaterThan(250);
        // a range on a field without points: its entry is unusable, every segment general: not answered here
        Query noPoints = new BooleanQuery.Builder().add(new TermQuery(new Term("c", "c1")), Occur.FILTER)
                .add(LongPoint.newRangeQuery("r", 1, 5), Occur.FILTER).build();
        assertThat(TermRangePages.count(searcher, noPoints, cache)).isEmpty();
    }

    @Test
    void aWorkingSetLargerThanTheBudgetKeepsWhatItHoldsInsteadOfRebuilding() throws IOException {
        index(10, false);
        IndexSearcher searcher = new IndexSearcher(reader);
        // room for the entries of two or three categories of each segment, not of all four
        long all = 0;
        for (var leaf : reader.leaves()) {
            for (String category : CATEGORIES) {
                all += SortedTermValues.estimateBytes(leaf.reader(), new Term("c", category), Long.MAX_VALUE);
            }
        }
        SortedTermValuesCache cache = new SortedTermValuesCache(all * 2 / 3);
        Sort sort = sorts().get(0);
        int requests = 0;
        for (int round = 0; round < 30; round++) {
            for (String category : CATEGORIES) {
                Query query = new BooleanQuery.Builder().add(new TermQuery(new Term("c", category)), Occur.FILTER)
                        .add(LongPoint.newRangeQuery("p", 5, 50), Occur.FILTER).build();
                TopDocs expected = searcher.search(query, new TopFieldCollectorManager(sort, 10, null,
                        Integer.MAX_VALUE));
                Optional<TopDocs> actual = TermRangePages.search(searcher, query, sort, 10, null, Integer.MAX_VALUE,
                        cache);
                if (actual.isPresent()) {
                    assertSame(expected, actual.get(), Integer.MAX_VALUE, category + " round " + round);
                }
                requests++;
            }
            assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
        }
        int lookups = requests * reader.leaves().size();
        // plain LRU would rebuild on nearly every lookup; admission keeps the held entries
        assertThat(cache.builds()).as("builds of " + lookups + " lookups").isLessThan(lookups / 10);
        assertThat(cache.declined()).isPositive();
        assertThat(cache.size()).isPositive();
    }

    @Test
    void releasesTheEntriesOfMergedAwaySegments() throws IOException {
        directory = new ByteBuffersDirectory();
        SortedTermValuesCache cache = new SortedTermValuesCache(64L << 20);
        Query query = new BooleanQuery.Builder().add(new TermQuery(new Term("c", "c1")), Occur.FILTER)
                .add(LongPoint.newRangeQuery("p", 1, 40), Occur.FILTER).build();
        Sort sort = sorts().get(0);
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            Random random = new Random(3);
            for (int i = 0; i < 3_000; i++) {
                Document doc = new Document();
                doc.add(new StringField("c", "c" + random.nextInt(3), Field.Store.NO));
                long price = random.nextInt(50);
                doc.add(new LongPoint("p", price));
                doc.add(new SortedNumericDocValuesField("p", price));
                writer.addDocument(doc);
                if (i % 1_000 == 999) {
                    writer.commit();
                }
            }
            reader = DirectoryReader.open(writer);
            assertThat(TermRangePages.search(new IndexSearcher(reader), query, sort, 10, null, Integer.MAX_VALUE,
                    cache)).isPresent();
            int segments = reader.leaves().size();
            assertThat(cache.size()).isEqualTo(segments);
            long built = cache.builds();
            // the same segments again: held, not rebuilt
            TermRangePages.search(new IndexSearcher(reader), query, sort, 10, null, Integer.MAX_VALUE, cache);
            assertThat(cache.builds()).isEqualTo(built);

            writer.forceMerge(1);
            DirectoryReader merged = DirectoryReader.openIfChanged(reader, writer);
            reader.close(); // the old segments' cores close: their entries go
            reader = merged;
            assertThat(cache.size()).isZero();
            assertThat(cache.bytes()).isZero();
            IndexSearcher searcher = new IndexSearcher(reader);
            assertSame(searcher.search(query, new TopFieldCollectorManager(sort, 10, null, Integer.MAX_VALUE)),
                    TermRangePages.search(searcher, query, sort, 10, null, Integer.MAX_VALUE, cache).orElseThrow(),
                    Integer.MAX_VALUE, "merged");
            assertThat(cache.size()).isEqualTo(1);
        }
    }
}
