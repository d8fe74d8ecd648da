package io.qdrant.esgateway.adapter.out.lucene.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FloatPoint;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedNumericDocValuesField;
import org.apache.lucene.document.SortedSetDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;
import org.junit.jupiter.api.Test;

/**
 * The exact Lucene fields {@link FieldEncoding#encode} produces, in order: the document built field by field in the
 * layout's order (one {@code Document.add} per field, as the encoder was first written) must equal the encoder's,
 * field for field (kind, name, field type, value). The index written from either is therefore the same.
 */
class FieldEncodingLayoutTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties": {
              "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
              "tag": {"type": "keyword"}, "count": {"type": "long"}, "price": {"type": "double"},
              "ratio": {"type": "float"}, "active": {"type": "boolean"}, "published": {"type": "date"},
              "v": {"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}
            }}
            """));

    @Test
    void everyKindOfValueGivesTheLayoutsFieldsInOrder() {
        List<IndexedValue> values = List.of(
                new IndexedValue.Text("title", "Quick Brown"),
                new IndexedValue.Keyword("title.raw", "Quick Brown"),
                new IndexedValue.Keyword("tag", "red"), new IndexedValue.LongValue("count", 7),
                new IndexedValue.Keyword("tag", "blue"), new IndexedValue.LongValue("count", -42),
                new IndexedValue.DoubleValue("price", 9.99), new IndexedValue.FloatValue("ratio", 0.5f),
                new IndexedValue.BooleanValue("active", true), new IndexedValue.BooleanValue("active", false),
                new IndexedValue.DateValue("published", 1_714_979_289_123L),
                new IndexedValue.Vector("v", new float[] {1f, 2f}));
        byte[] source = "{\"title\":\"Quick Brown\"}".getBytes(StandardCharsets.UTF_8);
        DocumentVersion version = new DocumentVersion(3, 17, 1);

        Document expected = new Document();
        expected.add(new StringField(FieldEncoding.ID, "doc-1", Field.Store.YES));
        expected.add(new StoredField(FieldEncoding.SOURCE, source));
        expected.add(new StoredField(FieldEncoding.VERSION, 3L));
        expected.add(new StoredField(FieldEncoding.SEQ_NO, 17L));
        expected.add(new NumericDocValuesField(FieldEncoding.SEQ_NO, 17L));
        expected.add(new StoredField(FieldEncoding.PRIMARY_TERM, 1L));
        expected.add(new TextField("title", "Quick Brown", Field.Store.NO));
        expected.add(new StringField("title.raw", new BytesRef("Quick Brown"), Field.Store.NO));
        expected.add(new SortedSetDocValuesField("title.raw", new BytesRef("Quick Brown")));
        expected.add(new StringField("tag", new BytesRef("red"), Field.Store.NO));
        expected.add(new SortedSetDocValuesField("tag", new BytesRef("red")));
        expected.add(new LongPoint("count", 7));
        expected.add(new SortedNumericDocValuesField("count", 7));
        expected.add(new StringField("tag", new BytesRef("blue"), Field.Store.NO));
        expected.add(new SortedSetDocValuesField("tag", new BytesRef("blue")));
        expected.add(new LongPoint("count", -42));
        expected.add(new SortedNumericDocValuesField("count", -42));
        expected.add(new DoublePoint("price", 9.99));
        expected.add(new SortedNumericDocValuesField("price", NumericUtils.doubleToSortableLong(9.99)));
        expected.add(new FloatPoint("ratio", 0.5f));
        expected.add(new SortedNumericDocValuesField("ratio", NumericUtils.floatToSortableInt(0.5f)));
        expected.add(new StringField("active", FieldEncoding.TRUE, Field.Store.NO));
        expected.add(new SortedNumericDocValuesField("active", 1));
        expected.add(new StringField("active", FieldEncoding.FALSE, Field.Store.NO));
        expected.add(new SortedNumericDocValuesField("active", 0));
        expected.add(new LongPoint("published", 1_714_979_289_123L));
        expected.add(new SortedNumericDocValuesField("published", 1_714_979_289_123L));
        expected.add(new KnnFloatVectorField("v", new float[] {1f, 2f}, VectorSimilarityFunction.EUCLIDEAN));

        Document actual = FieldEncoding.encode(MAPPINGS, "doc-1", version, source, values);

        assertThat(describe(actual)).containsExactlyElementsOf(describe(expected));
    }

    @Test
    void aDocumentWithoutValuesHasOnlyItsOwnSixFields() {
        Document actual = FieldEncoding.encode(MAPPINGS, "empty", new DocumentVersion(1, 0, 1), new byte[] {'{', '}'},
                List.of());

        assertThat(describe(actual)).hasSize(6);
        assertThat(actual.getFields().stream().map(IndexableField::name)).containsExactly(FieldEncoding.ID,
                FieldEncoding.SOURCE, FieldEncoding.VERSION, FieldEncoding.SEQ_NO, FieldEncoding.SEQ_NO,
                FieldEncoding.PRIMARY_TERM);
    }

    /** Each field as kind, name, field type and value, comparable across two documents. */
    private static List<String> describe(Document document) {
        List<String> fields = new ArrayList<>();
        for (IndexableField f : document.getFields()) {
            BytesRef binary = f.binaryValue();
            String vector = f instanceof KnnFloatVectorField v ? Arrays.toString(v.vectorValue()) : "";
            fields.add(f.getClass().getSimpleName() + " " + f.name() + " " + f.fieldType() + " s=" + f.stringValue()
                    + " b=" + (binary == null ? null : Arrays.toString(BytesRef.deepCopyOf(binary).bytes)) + " n=" + f.numericValue() + " v=" + vector);
        }
        return fields;
    }
}
