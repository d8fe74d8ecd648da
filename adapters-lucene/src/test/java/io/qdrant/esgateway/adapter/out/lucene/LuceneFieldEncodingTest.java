package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.FloatPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * The field layout of the package documentation, read back with plain Lucene from the index directory: every
 * query search will build finds the document, and the doc values hold the right values.
 */
class LuceneFieldEncodingTest {
    private static final long PUBLISHED = Instant.parse("2024-05-06T07:08:09.123Z").toEpochMilli();
    private static final String MAPPINGS = """
            {"properties": {
              "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
              "tag": {"type": "keyword"}, "count": {"type": "long"}, "price": {"type": "double"},
              "ratio": {"type": "float"}, "active": {"type": "boolean"}, "published": {"type": "date"},
              "author": {"properties": {"name": {"type": "text"}}},
              "cos": {"type": "dense_vector", "dims": 3, "similarity": "cosine"},
              "dot": {"type": "dense_vector", "dims": 2, "similarity": "dot_product"},
              "l2": {"type": "dense_vector", "dims": 2, "similarity": "l2_norm"},
              "mip": {"type": "dense_vector", "dims": 2, "similarity": "max_inner_product"},
              "wide": {"type": "dense_vector", "dims": 4096, "similarity": "l2_norm"}
            }}
            """;
    private static final IndexMetadata INDEX = new IndexMetadata("products", "u1", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse(MAPPINGS)));

    @TempDir
    Path temp;

    private LuceneStores.Handle store;

    @BeforeEach
    void open() {
        store = LuceneStores.open(temp);
        store.createIndex(INDEX);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static IndexableDocument document(String id, long seqNo, String source, IndexedValue... values) {
        return new IndexableDocument(id, new DocumentVersion(seqNo + 1, seqNo, 1), (JsonObject) Json.parse(source),
                List.of(values));
    }

    /** The one document of the fixture with a value of every kind. */
    private static IndexableDocument rich() {
        return document("rich", 4, """
                {"title": "Quick Brown Ünïcode – 日本", "tag": ["red", "blue", "red"], "count": [7, 42, 7],
                 "price": 9.99, "ratio": 0.5, "active": true, "published": "2024-05-06T07:08:09.123Z",
                 "author": {"name": ""}, "cos": [0.1, 0.2, 0.3], "dot": [0.6, 0.8], "l2": [1, 2], "mip": [3, 4],
                 "untouched": "in the source, not indexed", "nothing": null}
                """,
                new IndexedValue.Text("title", "Quick Brown Ünïcode – 日本"),
                new IndexedValue.Keyword("title.raw", "Quick Brown Ünïcode – 日本"),
                new IndexedValue.Keyword("tag", "red"), new IndexedValue.Keyword("tag", "blue"),
                new IndexedValue.Keyword("tag", "red"),
                new IndexedValue.LongValue("count", 7), new IndexedValue.LongValue("count", 42),
                new IndexedValue.LongValue("count", 7),
                new IndexedValue.DoubleValue("price", 9.99),
                new IndexedValue.FloatValue("ratio", 0.5f),
                new IndexedValue.BooleanValue("active", true),
                new IndexedValue.DateValue("published", PUBLISHED),
                new IndexedValue.Text("author.name", ""),
                new IndexedValue.Vector("cos", new float[] {0.1f, 0.2f, 0.3f}),
                new IndexedValue.Vector("dot", new float[] {0.6f, 0.8f}),
                new IndexedValue.Vector("l2", new float[] {1, 2}),
                new IndexedValue.Vector("mip", new float[] {3, 4}));
    }

    /** Another document, so that every query has something to leave out. */
    private static IndexableDocument other() {
        return document("other", 5, "{\"tag\": \"green\", \"count\": 1, \"active\": false, \"price\": -1.5}",
                new IndexedValue.Keyword("tag", "green"), new IndexedValue.LongValue("count", 1),
                new IndexedValue.BooleanValue("active", false), new IndexedValue.DoubleValue("price", -1.5));
    }

    private void write(IndexableDocument... documents) {
        List<DocumentWrite> writes = new ArrayList<>();
        long max = -1;
        for (IndexableDocument d : documents) {
            writes.add(new DocumentWrite.Upsert(d));
            max = Math.max(max, d.version().seqNo());
        }
        store.write(INDEX, writes, max);
    }

    /**
     * Runs {@code check} on a reader of the last commit in the index directory: the store is closed first (writes
     * are committed to Lucene only then, they are in the translog before) and opened again afterwards.
     */
    private void onDisk(ReaderCheck check) throws IOException {
        store.close();
        store = LuceneStores.open(temp);
        try (Directory directory = FSDirectory.open(temp.resolve("indices").resolve(INDEX.uuid()));
             DirectoryReader reader = DirectoryReader.open(directory)) {
            check.accept(reader, new IndexSearcher(reader));
        }
    }

    @FunctionalInterface
    private interface ReaderCheck {
        void accept(DirectoryReader reader, IndexSearcher searcher) throws IOException;
    }

    /** The ids of the documents {@code query} finds. */
    private static List<String> ids(IndexSearcher searcher, Query query) throws IOException {
        TopDocs top = searcher.search(query, 10);
        List<String> ids = new ArrayList<>();
        for (ScoreDoc hit : top.scoreDocs) {
            ids.add(searcher.storedFields().document(hit.doc).get(FieldEncoding.ID));
        }
        return ids;
    }

    /** The leaf and leaf-local doc id of the document with this id. */
    private record Located(LeafReader leaf, int doc) {
    }

    private static Located locate(DirectoryReader reader, IndexSearcher searcher, String id) throws IOException {
        TopDocs top = searcher.search(new TermQuery(new Term(FieldEncoding.ID, id)), 2);
        assertThat(top.scoreDocs).hasSize(1);
        int global = top.scoreDocs[0].doc;
        var context = reader.leaves().get(ReaderUtil.subIndex(global, reader.leaves()));
        return new Located(context.reader(), global - context.docBase);
    }

    private static List<Long> sortedNumeric(Located at, String field) throws IOException {
        SortedNumericDocValues values = DocValues.getSortedNumeric(at.leaf(), field);
        assertThat(values.advanceExact(at.doc())).isTrue();
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < values.docValueCount(); i++) {
            out.add(values.nextValue());
        }
        return out;
    }

    private static List<String> sortedSet(Located at, String field) throws IOException {
        SortedSetDocValues values = DocValues.getSortedSet(at.leaf(), field);
        assertThat(values.advanceExact(at.doc())).isTrue();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < values.docValueCount(); i++) {
            out.add(values.lookupOrd(values.nextOrd()).utf8ToString());
        }
        return out;
    }

    private static Query term(String field, String value) {
        return new TermQuery(new Term(field, value));
    }

    @Test
    void idSourceAndVersionAreStoredAndNothingElseIs() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            Located at = locate(reader, searcher, "rich");
            Document stored = at.leaf().storedFields().document(at.doc());
            assertThat(stored.getFields()).extracting(IndexableField::name)
                    .containsExactlyInAnyOrder("_id", "_source", "_version", "_seq_no", "_primary_term");
            assertThat(stored.get("_id")).isEqualTo("rich");
            BytesRef source = stored.getBinaryValue("_source");
            assertThat(new String(source.bytes, source.offset, source.length, StandardCharsets.UTF_8))
                    .isEqualTo(Json.write(rich().source()));
            assertThat(stored.getField("_version").numericValue()).isEqualTo(5L);
            assertThat(stored.getField("_seq_no").numericValue()).isEqualTo(4L);
            assertThat(stored.getField("_primary_term").numericValue()).isEqualTo(1L);
            NumericDocValues seqNo = DocValues.getNumeric(at.leaf(), "_seq_no");
            assertThat(seqNo.advanceExact(at.doc())).isTrue();
            assertThat(seqNo.longValue()).isEqualTo(4);
            FieldInfo id = FieldInfos.getMergedFieldInfos(reader).fieldInfo("_id");
            assertThat(id.getIndexOptions()).isEqualTo(IndexOptions.DOCS);
        });
    }

    @Test
    void keywordsAreExactTermsWithAllTheirValuesInSortedSetDocValues() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            assertThat(ids(searcher, term("tag", "red"))).containsExactly("rich");
            assertThat(ids(searcher, term("tag", "blue"))).containsExactly("rich");
            assertThat(ids(searcher, term("tag", "green"))).containsExactly("other");
            assertThat(ids(searcher, term("tag", "Red"))).isEmpty();
            assertThat(ids(searcher, term("title.raw", "Quick Brown Ünïcode – 日本"))).containsExactly("rich");
            assertThat(sortedSet(locate(reader, searcher, "rich"), "tag")).containsExactly("blue", "red");
            assertThat(sortedSet(locate(reader, searcher, "rich"), "title.raw"))
                    .containsExactly("Quick Brown Ünïcode – 日本");
        });
    }

    @Test
    void textIsAnalysedByTheStandardAnalyzerWithPositions() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            assertThat(ids(searcher, term("title", "quick"))).containsExactly("rich");
            assertThat(ids(searcher, term("title", "ünïcode"))).containsExactly("rich");
            assertThat(ids(searcher, term("title", "日"))).containsExactly("rich");
            assertThat(ids(searcher, term("title", "Quick"))).isEmpty();
            assertThat(ids(searcher, new org.apache.lucene.search.PhraseQuery("title", "quick", "brown")))
                    .containsExactly("rich");
            FieldInfo title = FieldInfos.getMergedFieldInfos(reader).fieldInfo("title");
            assertThat(title.getIndexOptions()).isEqualTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
            assertThat(title.getDocValuesType()).isEqualTo(DocValuesType.NONE);
        });
    }

    @Test
    void longsAndDatesArePointsWithSortedNumericDocValues() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            assertThat(ids(searcher, LongPoint.newExactQuery("count", 42))).containsExactly("rich");
            assertThat(ids(searcher, LongPoint.newExactQuery("count", 7))).containsExactly("rich");
            assertThat(ids(searcher, LongPoint.newRangeQuery("count", 0, 5))).containsExactly("other");
            assertThat(ids(searcher, LongPoint.newExactQuery("published", PUBLISHED))).containsExactly("rich");
            assertThat(sortedNumeric(locate(reader, searcher, "rich"), "count")).containsExactly(7L, 7L, 42L);
            assertThat(sortedNumeric(locate(reader, searcher, "rich"), "published")).containsExactly(PUBLISHED);
        });
    }

    @Test
    void doublesAndFloatsArePointsWithSortableDocValues() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            assertThat(ids(searcher, DoublePoint.newExactQuery("price", 9.99))).containsExactly("rich");
            assertThat(ids(searcher, DoublePoint.newRangeQuery("price", Double.NEGATIVE_INFINITY, 0)))
                    .containsExactly("other");
            assertThat(ids(searcher, FloatPoint.newExactQuery("ratio", 0.5f))).containsExactly("rich");
            assertThat(sortedNumeric(locate(reader, searcher, "rich"), "price"))
                    .containsExactly(NumericUtils.doubleToSortableLong(9.99));
            assertThat(NumericUtils.sortableLongToDouble(sortedNumeric(locate(reader, searcher, "other"), "price")
                    .getFirst())).isEqualTo(-1.5);
            assertThat(NumericUtils.sortableIntToFloat(sortedNumeric(locate(reader, searcher, "rich"), "ratio")
                    .getFirst().intValue())).isEqualTo(0.5f);
        });
    }

    @Test
    void booleansAreTermsTAndFWithOneAndZeroDocValues() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            assertThat(ids(searcher, term("active", "T"))).containsExactly("rich");
            assertThat(ids(searcher, term("active", "F"))).containsExactly("other");
            assertThat(sortedNumeric(locate(reader, searcher, "rich"), "active")).containsExactly(1L);
            assertThat(sortedNumeric(locate(reader, searcher, "other"), "active")).containsExactly(0L);
        });
    }

    @Test
    void vectorsAreIndexedForKnnWithTheSimilarityOfTheirMapping() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            FieldInfos infos = FieldInfos.getMergedFieldInfos(reader);
            assertThat(infos.fieldInfo("cos").getVectorSimilarityFunction()).isEqualTo(VectorSimilarityFunction.COSINE);
            assertThat(infos.fieldInfo("cos").getVectorDimension()).isEqualTo(3);
            assertThat(infos.fieldInfo("dot").getVectorSimilarityFunction())
                    .isEqualTo(VectorSimilarityFunction.DOT_PRODUCT);
            assertThat(infos.fieldInfo("l2").getVectorSimilarityFunction()).isEqualTo(VectorSimilarityFunction.EUCLIDEAN);
            assertThat(infos.fieldInfo("mip").getVectorSimilarityFunction())
                    .isEqualTo(VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT);
            assertThat(ids(searcher, new KnnFloatVectorQuery("cos", new float[] {0.1f, 0.2f, 0.3f}, 5)))
                    .containsExactly("rich");
            TopDocs l2 = searcher.search(new KnnFloatVectorQuery("l2", new float[] {1, 2}, 5), 5);
            assertThat(l2.scoreDocs[0].score).isEqualTo(1f); // 1 / (1 + squared distance 0)
        });
    }

    @Test
    void vectorsMayHaveUpTo4096DimensionsAndSurviveARestart() throws IOException {
        float[] wide = new float[4096];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = i % 7;
        }
        write(document("wide", 0, "{}", new IndexedValue.Vector("wide", wide)));
        store.close();
        store = LuceneStores.open(temp);
        write(document("wide-2", 1, "{}", new IndexedValue.Vector("wide", new float[4096])));

        assertThat(store.get(INDEX, List.of("wide", "wide-2"))).hasSize(2);
        onDisk((reader, searcher) -> {
            assertThat(FieldInfos.getMergedFieldInfos(reader).fieldInfo("wide").getVectorDimension()).isEqualTo(4096);
            assertThat(ids(searcher, new KnnFloatVectorQuery("wide", wide, 1))).containsExactly("wide");
        });
    }

    @Test
    void everyPathWithAValueHasDocValuesNormsOrAVectorAndNoDocumentHasFieldNames() throws IOException {
        write(rich(), other());

        onDisk((reader, searcher) -> {
            // what exists queries read (QueryTranslator): also the text without tokens (author.name = "")
            for (String path : List.of("title", "title.raw", "tag", "count", "price", "ratio", "active", "published",
                    "author.name", "cos", "dot", "l2", "mip")) {
                assertThat(ids(searcher, new FieldExistsQuery(path))).as(path).contains("rich");
            }
            assertThat(ids(searcher, new FieldExistsQuery("tag"))).containsExactlyInAnyOrder("rich", "other");
            assertThat(ids(searcher, new FieldExistsQuery("cos"))).containsExactly("rich");
            for (String absent : List.of("untouched", "nothing", "author", "wide")) {
                assertThat(ids(searcher, new FieldExistsQuery(absent))).as(absent).isEmpty();
            }
            assertThat(FieldInfos.getMergedFieldInfos(reader).fieldInfo("untouched")).isNull();
            // Elasticsearch indexes _field_names only for fields without doc values and norms: none here
            assertThat(FieldInfos.getMergedFieldInfos(reader).fieldInfo(FieldEncoding.FIELD_NAMES)).isNull();
        });
    }

    @Test
    void writesAreCommittedOnCloseWithTheMaxSeqNoTheTranslogGenerationAndTheLayoutVersion() throws IOException {
        write(rich());
        write(other());
        try (Directory directory = FSDirectory.open(temp.resolve("indices").resolve(INDEX.uuid()))) {
            // until then they are in the translog only: the last commit is the empty index's
            assertThat(SegmentInfos.readLatestCommit(directory).getUserData())
                    .isEqualTo(Map.of("qeg_encoding", "1", "translog_generation", "1"));
            store.close();
            assertThat(SegmentInfos.readLatestCommit(directory).getUserData())
                    .isEqualTo(Map.of("max_seq_no", "5", "qeg_encoding", "1", "translog_generation", "2"));
        }
        onDisk((reader, searcher) -> assertThat(searcher.count(new MatchAllDocsQuery())).isEqualTo(2));
    }

    @Test
    void aKeywordOverLucenesTermLimitIsRefusedAndNothingOfTheBatchIsWritten() {
        String immense = "é".repeat(16_384); // 32768 UTF-8 bytes
        IndexableDocument tooLong = document("long", 1, "{}", new IndexedValue.Keyword("tag", immense));

        GatewayException e = catchThrowableOfType(GatewayException.class, () -> store.write(INDEX,
                List.of(new DocumentWrite.Upsert(other()), new DocumentWrite.Upsert(tooLong)), 5));

        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.reason()).startsWith("Document contains at least one immense term in field=\"tag\" (whose UTF8 "
                + "encoding is longer than the max length 32766), all of which were skipped.")
                .endsWith("original message: bytes can be at most 32766 in length; got 32768");
        assertThat(store.get(INDEX, List.of("other", "long"))).isEmpty();
        assertThat(store.maxSeqNo(INDEX)).isEqualTo(-1);
    }

    @Test
    void aVectorThatDoesNotFitItsMappingIsOurBugAndNothingIsWritten() {
        List<IndexableDocument> broken = List.of(
                document("unmapped", 1, "{}", new IndexedValue.Vector("tag", new float[] {1, 2})),
                document("missing", 1, "{}", new IndexedValue.Vector("nowhere", new float[] {1, 2})),
                document("dims", 1, "{}", new IndexedValue.Vector("l2", new float[] {1, 2, 3})),
                document("twice", 1, "{}", new IndexedValue.Vector("l2", new float[] {1, 2}),
                        new IndexedValue.Vector("l2", new float[] {3, 4})),
                document("nan", 1, "{}", new IndexedValue.Vector("l2", new float[] {Float.NaN, 2})));
        for (IndexableDocument d : broken) {
            GatewayException e = catchThrowableOfType(GatewayException.class, () -> store.write(INDEX,
                    List.of(new DocumentWrite.Upsert(other()), new DocumentWrite.Upsert(d)), 5));

            assertThat(e.kind()).as(d.id()).isEqualTo(ErrorKind.BACKEND_FAILURE);
            assertThat(e.reason()).as(d.id()).startsWith("cannot write to the Lucene index of [products/u1]: document ["
                    + d.id() + "] ");
        }
        assertThat(store.get(INDEX, List.of("other"))).isEmpty();
        assertThat(store.stats(INDEX).docCount()).isZero();
    }
}
