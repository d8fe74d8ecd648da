package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.lucene.cache.TermValueCountsCache;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;

/**
 * Keyword counts over a range from {@link TermValueCounts} equal Lucene's own count of "keyword value AND range" in
 * the segment, and {@link RangeTermsCounts} answering from them equals counting the matches' keyword doc values one by
 * one (what the collectors do) — beside segments that cannot use them (several keywords or numbers in a document,
 * more keyword values than the limit, deletions), documents without a keyword or a number, many ties, long and double
 * ranges (−0.0, ±∞, bounds outside the values, empty ranges); built on first use and held, released when their
 * segment is merged away, bounded by the budget.
 */
class TermValueCountsTest {
    private static final String[] KEYWORDS = {"a", "b", "c", "é", "zz", "日本"};
    private static final double[] DOUBLES = {-0.0, 0.0, -2.5, 1.25, 3.0, Double.NEGATIVE_INFINITY, 7.75, 1e300};

    /**
     * Segments of random sizes; {@code kinds} per segment: "plain", "multi-k" (some documents with two keywords),
     * "multi-p" (some with two numbers), "many-k" (more keyword values than the limit the tests use), "deletes",
     * "full" (every document has a keyword), "wide" (hundreds of distinct numbers, negative ones too).
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
                    if (kind.equals("full") || random.nextInt(9) != 0) {
                        String k = kind.equals("many-k") ? "k" + random.nextInt(40) : KEYWORDS[random.nextInt(KEYWORDS.length)];
                        keyword(doc, k);
                        if (kind.equals("multi-k") && i % 7 == 0) {
                            keyword(doc, "zz-" + k);
                        }
                    }
                    if (random.nextInt(8) != 0) {
                        long p = kind.equals("wide") ? random.nextInt(400) - 200 : random.nextInt(30);
                        doc.add(new LongPoint("p", p));
                        doc.add(new SortedNumericDocValuesField("p", p));
                        if (kind.equals("multi-p") && i % 9 == 0) {
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

    private static void keyword(Document doc, String k) {
        doc.add(new StringField("k", k, Field.Store.NO));
        doc.add(new SortedSetDocValuesField("k", new BytesRef(k)));
    }

    /** Long ranges on p and double ranges on d, including empty ones (lower above upper) and unbounded ones. */
    private static List<Query> ranges(Random random) {
        List<Query> queries = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long a = random.nextInt(46) - 3;
            long b = random.nextInt(46) - 3;
            queries.add(LongPoint.newRangeQuery("p", a, b));
            queries.add(LongPoint.newRangeQuery("p", Math.min(a, b), Long.MAX_VALUE));
        }
        queries.add(LongPoint.newRangeQuery("p", Long.MIN_VALUE, Long.MAX_VALUE));
        queries.add(LongPoint.newRangeQuery("p", 5, 5));
        queries.add(LongPoint.newRangeQuery("p", 29, 29));
        queries.add(LongPoint.newRangeQuery("p", 0, 0));
        queries.add(new BooleanQuery.Builder().add(LongPoint.newRangeQuery("p", 2, 20), Occur.FILTER)
                .add(LongPoint.newRangeQuery("p", 7, 40), Occur.MUST).build());
        for (double lower : DOUBLES) {
            for (double upper : DOUBLES) {
                queries.add(DoublePoint.newRangeQuery("d", lower, upper));
            }
        }
        queries.add(DoublePoint.newRangeQuery("d", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY));
        queries.add(DoublePoint.newRangeQuery("d", Math.nextUp(-0.0), 3.0));
        return queries;
    }

    @Test
    void eachValuesCountEqualsLucenesCountOfValueAndRange() throws IOException {
        for (int seed = 1; seed <= 5; seed++) {
            Random random = new Random(seed);
            try (Directory directory = index(random, "plain", "full", "wide", "plain");
                 DirectoryReader reader = DirectoryReader.open(directory)) {
                List<Query> ranges = ranges(random);
                int compared = 0;
                for (LeafReaderContext leaf : reader.leaves()) {
                    IndexSearcher segment = new IndexSearcher(leaf.reader());
                    for (String field : List.of("p", "d")) {
                        TermValueCounts entry = TermValueCounts.build(leaf.reader(), "k", field, 128, 1 << 17);
                        assertThat(entry.usable()).isTrue();
                        assertThat(entry.termCount()).isEqualTo(KEYWORDS.length);
                        for (Query range : ranges) {
                            TermRangePages.Shape shape = TermRangePages.rangeOnly(range).orElseThrow();
                            if (!shape.field().equals(field)) {
                                continue;
                            }
                            for (int ord = 0; ord < entry.termCount(); ord++) {
                                Query both = new BooleanQuery.Builder().add(range, Occur.FILTER)
                                        .add(new TermQuery(new Term("k", entry.term(ord))), Occur.FILTER).build();
                                assertThat(entry.count(ord, shape.lower(), shape.upper()))
                                        .as("seed %d, segment %d, %s: %s", seed, leaf.ord, entry.term(ord), range)
                                        .isEqualTo(segment.count(both));
                                compared++;
                            }
                        }
                    }
                }
                assertThat(compared).isGreaterThan(1_000);
            }
        }
    }

    /** What the collectors count: every match's keyword, and the matches without one, per segment. */
    private static RangeTermsCounts.SegmentCounts collected(IndexSearcher searcher, Query query, LeafReaderContext leaf)
            throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
        Map<String, Long> counts = new HashMap<>();
        long without = 0;
        Scorer scorer = weight.scorer(leaf);
        if (scorer != null) {
            SortedSetDocValues keywords = leaf.reader().getSortedSetDocValues("k");
            DocIdSetIterator it = scorer.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                if (keywords == null || !keywords.advanceExact(doc)) {
                    without++;
                    continue;
                }
                for (int i = 0; i < keywords.docValueCount(); i++) {
                    counts.merge(keywords.lookupOrd(keywords.nextOrd()).utf8ToString(), 1L, Long::sum);
                }
            }
        }
        return new RangeTermsCounts.SegmentCounts(List.of(counts), new long[] {without});
    }

    @Test
    void rangeTermsCountsFromTheEntriesEqualTheCollectedCounts() throws IOException {
        for (int seed = 1; seed <= 4; seed++) {
            Random random = new Random(100 + seed);
            try (Directory directory = index(random, "plain", "multi-k", "full", "multi-p", "many-k", "deletes",
                    "plain");
                 DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                TermValueCountsCache slices = new TermValueCountsCache(1 << 20);
                SortedTermValuesCache perValue = new SortedTermValuesCache(1 << 20);
                int fromSlices = 0;
                for (Query range : ranges(random)) {
                    for (int use = 1; use <= 2; use++) {
                        long builtBefore = slices.builds();
                        var answered = RangeTermsCounts.count(searcher, range, List.of("k"), perValue, slices);
                        for (var e : answered.entrySet()) {
                            RangeTermsCounts.SegmentCounts expected = collected(searcher, range, e.getKey());
                            assertThat(e.getValue().values()).as("seed %d, use %d, segment %d: %s", seed, use,
                                    e.getKey().ord, range).isEqualTo(expected.values());
                            assertThat(e.getValue().withoutValue()).as("seed %d, segment %d: %s (without)", seed,
                                    e.getKey().ord, range).isEqualTo(expected.withoutValue());
                        }
                        if (slices.size() > 0 && slices.builds() == builtBefore) {
                            fromSlices += answered.size();
                        }
                        assertThat(answered.keySet()).as("never the segments that cannot answer")
                                .extracting(leaf -> leaf.ord).doesNotContain(1, 5);
                        if (TermRangePages.rangeOnly(range).orElseThrow().field().equals("p")) {
                            assertThat(answered.keySet()).as("several numbers in a document")
                                    .extracting(leaf -> leaf.ord).doesNotContain(3);
                        }
                    }
                }
                assertThat(fromSlices).as("seed %d: segments answered with the entries held", seed)
                        .isGreaterThan(100);
                assertThat(slices.size()).as("every segment's entries for p and d, usable or markers")
                        .isEqualTo(2 * (reader.leaves().size() - 1)); // the deletions' segment never asks
                assertThat(slices.builds()).as("each built once").isEqualTo(slices.size());
            }
        }
    }

    @Test
    void usability() throws IOException {
        try (Directory directory = index(new Random(3), "plain", "multi-k", "multi-p", "many-k");
             DirectoryReader reader = DirectoryReader.open(directory)) {
            var leaves = reader.leaves();
            LeafReader plain = leaves.get(0).reader();
            assertThat(TermValueCounts.build(plain, "k", "p", 128, 1 << 17).usable()).isTrue();
            assertThat(TermValueCounts.build(leaves.get(1).reader(), "k", "p", 128, 1 << 17).usable())
                    .as("several keywords in a document").isFalse();
            assertThat(TermValueCounts.build(leaves.get(2).reader(), "k", "p", 128, 1 << 17).usable())
                    .as("several numbers in a document").isFalse();
            assertThat(TermValueCounts.build(leaves.get(3).reader(), "k", "p", 20, 1 << 17).usable())
                    .as("more keyword values than the limit").isFalse();
            assertThat(TermValueCounts.build(leaves.get(3).reader(), "k", "p", 128, 1 << 17).usable()).isTrue();
            assertThat(TermValueCounts.build(plain, "k", "p", 128, 20).usable()).as("more cells than the limit")
                    .isFalse();
            assertThat(TermValueCounts.build(plain, "k", "id", 128, 1 << 17).usable()).as("no points").isFalse();
            assertThat(TermValueCounts.build(plain, "id", "p", 128, 1 << 17).usable()).as("no doc values")
                    .isFalse();
            TermValueCounts noNumber = TermValueCounts.build(plain, "k", "absent", 128, 1 << 17);
            assertThat(noNumber.usable()).isTrue();
            assertThat(noNumber.count(0, Long.MIN_VALUE, Long.MAX_VALUE)).as("no document has the number").isZero();
            TermValueCounts noKeyword = TermValueCounts.build(plain, "absent", "p", 128, 1 << 17);
            assertThat(noKeyword.usable()).isTrue();
            assertThat(noKeyword.termCount()).isZero();
            assertThat(noKeyword.docsWithTerm()).isZero();

            TermValueCountsCache cache = new TermValueCountsCache(1 << 20);
            assertThat(cache.get(plain, "k", "p")).isNotNull();
            assertThat(cache.builds()).isEqualTo(1);
            assertThat(cache.get(plain, "k", "p")).as("held").isNotNull();
            assertThat(cache.builds()).as("not rebuilt while held").isEqualTo(1);
        }
    }

    @Test
    void entriesAreReleasedWhenTheirSegmentIsMergedAway() throws IOException {
        Directory directory = index(new Random(9), "plain", "plain", "plain");
        TermValueCountsCache cache = new TermValueCountsCache(1 << 20);
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                cache.get(leaf.reader(), "k", "p");
            }
            assertThat(cache.size()).isEqualTo(3);
            assertThat(cache.bytes()).isPositive();
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
        try (Directory directory = index(new Random(4), "plain", "plain", "plain", "plain");
             DirectoryReader reader = DirectoryReader.open(directory)) {
            long one = TermValueCounts.build(reader.leaves().get(0).reader(), "k", "p", 128, 1 << 17).bytes();
            TermValueCountsCache cache = new TermValueCountsCache(2 * one);
            for (LeafReaderContext leaf : reader.leaves()) {
                cache.get(leaf.reader(), "k", "p");
            }
            assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
            assertThat(cache.size()).as("not every segment's entry").isBetween(1, 3);
        }
    }
}
