package io.qdrant.esgateway.adapter.out.lucene.encoding;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.index.TextOptions;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.NumericUtils;

/**
 * How a document becomes a Lucene document and back. The layout is described in the package documentation; search
 * builds its queries against exactly these names and encodings.
 */
public final class FieldEncoding {
    /** The document id: indexed as one exact term (updates and deletes address it) and stored. */
    public static final String ID = "_id";
    /** The {@code _source}: compact JSON ({@link Json#write}) as UTF-8 bytes, stored only. */
    public static final String SOURCE = "_source";
    /** The version triple: stored longs; {@code _seq_no} also as numeric doc values. */
    public static final String VERSION = "_version";
    static final String SEQ_NO = "_seq_no";
    static final String PRIMARY_TERM = "_primary_term";
    /**
     * The routing value the document was written with, stored, and only when there is one; also indexed as the
     * keyword values of the {@code _routing} metadata field, except in an index whose {@code _routing} is stored only
     * ({@link #routingStoredOnly(IndexReader)}).
     */
    public static final String ROUTING = "_routing";
    /**
     * Indexes written before this field was dropped hold one exact term per field path that got at least one value
     * here; no document gets it now ({@code exists} reads doc values, norms or vectors, see the package
     * documentation), and nothing reads it.
     */
    public static final String FIELD_NAMES = "_field_names";
    /** The indexed terms of {@code true} and {@code false}, as Elasticsearch indexes booleans. */
    /** A text field's hidden field of term prefixes ({@code index_prefixes}): positions, no norms, as ES. */
    private static final org.apache.lucene.document.FieldType PREFIXES;

    static {
        org.apache.lucene.document.FieldType t = new org.apache.lucene.document.FieldType(TextField.TYPE_NOT_STORED);
        t.setOmitNorms(true);
        t.freeze();
        PREFIXES = t;
    }

    public static final String TRUE = "T";
    public static final String FALSE = "F";
    /** The stored fields a {@code get} loads. */
    public static final Set<String> STORED = Set.of(ID, SOURCE, VERSION, SEQ_NO, PRIMARY_TERM, ROUTING);

    /** A value Lucene would refuse for the document itself (e.g. an immense keyword): the client's fault. */
    public static final class RejectedValue extends IllegalArgumentException {
        RejectedValue(String message) {
            super(message);
        }
    }

    /** A document that breaks what the application promises (values fit their mapping): our fault. */
    public static final class BrokenInvariant extends IllegalStateException {
        BrokenInvariant(String message) {
            super(message);
        }
    }

    private FieldEncoding() {
    }

    /**
     * The Lucene document for {@code document}; vector fields take their similarity and dimensions from
     * {@code mappings}.
     *
     * @throws RejectedValue for a keyword longer than Lucene's term limit
     * @throws BrokenInvariant for a vector without a {@code dense_vector} mapping, with the wrong number of
     *         dimensions, or given twice
     */
    public static Document encode(Mappings mappings, IndexableDocument document) {
        return encode(mappings, document.id(), document.version(), sourceBytes(document.source()), document.values(),
                document.routing().orElse(null));
    }

    /**
     * As {@link #encode(Mappings, IndexableDocument)}, with {@code _source} already as its stored bytes.
     *
     * <p>The fields are collected in an array sized for the most a document can have (six of its own, and per value
     * at most two fields) and added to the Lucene document in one loop, in the order of the layout. Written so because this method runs for every indexed document and is compiled by the JIT
     * early in a process's life: with one {@code Document.add} per field kind the compiler inlined fifteen copies of
     * the list's add-and-grow path, and its compilation took most of a second of the first bulk load
     * (docs/benchmarks/README.md, "Write path").
     */
    public static Document encode(Mappings mappings, String id, DocumentVersion version, byte[] source,
                           List<IndexedValue> values) {
        return encode(mappings, id, version, source, values, null);
    }

    /** As {@link #encode(Mappings, String, DocumentVersion, byte[], List)}, with the routing value (or null). */
    public static Document encode(Mappings mappings, String id, DocumentVersion version, byte[] source,
                           List<IndexedValue> values, String routing) {
        IndexableField[] fields = new IndexableField[7 + 3 * values.size()];
        int n = 0;
        fields[n++] = new StringField(ID, id, Field.Store.YES);
        fields[n++] = new StoredField(SOURCE, source);
        fields[n++] = new StoredField(VERSION, version.version());
        fields[n++] = new StoredField(SEQ_NO, version.seqNo());
        fields[n++] = new NumericDocValuesField(SEQ_NO, version.seqNo());
        fields[n++] = new StoredField(PRIMARY_TERM, version.primaryTerm());
        if (routing != null) {
            fields[n++] = new StoredField(ROUTING, routing);
        }

        Set<String> vectors = null;
        for (IndexedValue value : values) {
            String field = value.field();
            switch (value) {
                case IndexedValue.Keyword k -> {
                    BytesRef term = keywordTerm(field, k.value());
                    fields[n++] = new StringField(field, term, Field.Store.NO);
                    fields[n++] = new SortedSetDocValuesField(field, term);
                }
                case IndexedValue.Text t -> {
                    fields[n++] = new TextField(field, t.value(), Field.Store.NO);
                    if (mappings.field(field).orElse(null) instanceof FieldMapping.TextField m
                            && m.text() != TextOptions.DEFAULT) {
                        if (m.text().indexPhrases()) {
                            fields[n++] = new TextField(field + TextOptions.PHRASE_SUFFIX, t.value(), Field.Store.NO);
                        }
                        if (m.text().indexPrefixes().isPresent()) {
                            fields[n++] = new Field(field + TextOptions.PREFIX_SUFFIX, t.value(), PREFIXES);
                        }
                    }
                }
                case IndexedValue.LongValue l -> {
                    fields[n++] = new LongPoint(field, l.value());
                    fields[n++] = new SortedNumericDocValuesField(field, l.value());
                }
                case IndexedValue.DateValue d -> {
                    fields[n++] = new LongPoint(field, d.epochMillis());
                    fields[n++] = new SortedNumericDocValuesField(field, d.epochMillis());
                }
                case IndexedValue.DoubleValue d -> {
                    fields[n++] = new DoublePoint(field, d.value());
                    fields[n++] = new SortedNumericDocValuesField(field, NumericUtils.doubleToSortableLong(d.value()));
                }
                case IndexedValue.FloatValue f -> {
                    fields[n++] = new FloatPoint(field, f.value());
                    fields[n++] = new SortedNumericDocValuesField(field, NumericUtils.floatToSortableInt(f.value()));
                }
                case IndexedValue.BooleanValue b -> {
                    fields[n++] = new StringField(field, b.value() ? TRUE : FALSE, Field.Store.NO);
                    fields[n++] = new SortedNumericDocValuesField(field, b.value() ? 1 : 0);
                }
                case IndexedValue.Vector v -> {
                    if (vectors == null) {
                        vectors = new HashSet<>();
                    }
                    if (!vectors.add(field)) {
                        throw new BrokenInvariant("document [" + id + "] has more than one vector in ["
                                + field + "]");
                    }
                    fields[n++] = vectorField(mappings, id, v);
                }
            }
        }
        Document lucene = new Document();
        for (int i = 0; i < n; i++) {
            lucene.add(fields[i]);
        }
        return lucene;
    }

    /**
     * Whether the index holds documents whose {@code _routing} is stored only (index options {@code NONE}): an index
     * written before the field was indexed. Lucene keeps one schema per field, so such an index cannot take an
     * indexed {@code _routing}: its writes keep it stored only ({@link #withRoutingStoredOnly}), and a query on it
     * could not find them.
     */
    public static boolean routingStoredOnly(IndexReader reader) {
        for (LeafReaderContext leaf : reader.leaves()) {
            FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(ROUTING);
            if (info != null && info.getIndexOptions() == IndexOptions.NONE) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code document} (changed in place) with its routing value in the stored {@code _routing} field only, its
     * indexed {@code _routing} fields taken out: the layout of an index whose {@code _routing} is stored only.
     */
    public static Document withRoutingStoredOnly(Document document) {
        String routing = document.get(ROUTING);
        if (routing != null) {
            document.removeFields(ROUTING);
            document.add(new StoredField(ROUTING, routing));
        }
        return document;
    }

    /** The document a {@code get} returns, from the {@link #STORED} fields of a Lucene document. */
    public static StoredDocument decode(Document stored) {
        return decode(stored, false);
    }

    /**
     * As {@link #decode(Document)}, for a document an answer shows: its source as {@link Json#compactObject} (parsed
     * only if something reads it; rendered from the stored text as it is).
     */
    public static StoredDocument decodeForAnswer(Document stored) {
        return decode(stored, true);
    }

    private static StoredDocument decode(Document stored, boolean compact) {
        BytesRef source = stored.getBinaryValue(SOURCE);
        DocumentVersion version = new DocumentVersion(longOf(stored, VERSION), longOf(stored, SEQ_NO),
                longOf(stored, PRIMARY_TERM));
        Optional<String> routing = Optional.ofNullable(stored.get(ROUTING));
        if (compact) {
            return decodeForAnswer(stored.get(ID), version, exactBytes(source), routing);
        }
        String text = new String(source.bytes, source.offset, source.length, StandardCharsets.UTF_8);
        return new StoredDocument(stored.get(ID), version, (JsonObject) Json.parse(text), routing);
    }

    /**
     * As {@link #decodeForAnswer(Document)}, for a document given by what its stored fields would hold: its id,
     * version and {@code _source} bytes ({@link #sourceBytes}; not copied, must not change).
     */
    public static StoredDocument decodeForAnswer(String id, DocumentVersion version, byte[] source) {
        return decodeForAnswer(id, version, source, Optional.empty());
    }

    /** As {@link #decodeForAnswer(String, DocumentVersion, byte[])}, with the document's routing value. */
    public static StoredDocument decodeForAnswer(String id, DocumentVersion version, byte[] source,
                                                 Optional<String> routing) {
        String text = new String(source, StandardCharsets.UTF_8);
        return new StoredDocument(id, version, (JsonObject) Json.compactObject(text, source), routing);
    }

    /** The bytes of {@code ref} as an array of their own length (the stored field's own array when it is one). */
    private static byte[] exactBytes(BytesRef ref) {
        return ref.offset == 0 && ref.length == ref.bytes.length ? ref.bytes
                : Arrays.copyOfRange(ref.bytes, ref.offset, ref.offset + ref.length);
    }

    /** The Lucene similarity of an Elasticsearch {@code dense_vector} similarity. */
    static VectorSimilarityFunction similarity(FieldMapping.Similarity similarity) {
        return switch (similarity) {
            case COSINE -> VectorSimilarityFunction.COSINE;
            case DOT_PRODUCT -> VectorSimilarityFunction.DOT_PRODUCT;
            case L2_NORM -> VectorSimilarityFunction.EUCLIDEAN;
            case MAX_INNER_PRODUCT -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        };
    }

    /**
     * The bytes of the source: its compact JSON in UTF-8. A lone surrogate (legal in a JSON string, e.g. from an
     * escape, but not encodable in UTF-8) is written as a {@code \\uXXXX} escape, which {@link Json#parse} turns back
     * into the same character, so every source round-trips exactly.
     */
    static byte[] sourceBytes(JsonObject source) {
        return CompactJsonBytes.of(source);
    }

    /** Lucene refuses terms (and sorted doc values) over 32766 UTF-8 bytes; so does Elasticsearch, in its words. */
    private static BytesRef keywordTerm(String field, String value) {
        BytesRef term = new BytesRef(value);
        if (term.length > IndexWriter.MAX_TERM_LENGTH) {
            throw new RejectedValue("Document contains at least one immense term in field=\"" + field
                    + "\" (whose UTF8 encoding is longer than the max length " + IndexWriter.MAX_TERM_LENGTH
                    + "), all of which were skipped. Please correct the analyzer to not produce such terms. The prefix"
                    + " of the first immense term is: '" + Arrays.toString(Arrays.copyOf(term.bytes, 30))
                    + "...', original message: bytes can be at most " + IndexWriter.MAX_TERM_LENGTH
                    + " in length; got " + term.length);
        }
        return term;
    }

    private static IndexableField vectorField(Mappings mappings, String id, IndexedValue.Vector vector) {
        String field = vector.field();
        Optional<FieldMapping> mapping = mappings.field(field);
        if (!(mapping.orElse(null) instanceof DenseVectorField dense)) {
            throw new BrokenInvariant("document [" + id + "] has a vector in [" + field
                    + "], which is not mapped as a dense_vector");
        }
        if (vector.values().length != dense.dims()) {
            throw new BrokenInvariant("document [" + id + "] has a vector of " + vector.values().length
                    + " dimensions in [" + field + "], which is mapped with " + dense.dims());
        }
        try {
            return new KnnFloatVectorField(field, vector.values().clone(), similarity(dense.similarity()));
        } catch (IllegalArgumentException e) {
            // non-finite components: the parser must have rejected them
            throw new BrokenInvariant("document [" + id + "] has a vector Lucene refuses in [" + field + "]: "
                    + e.getMessage());
        }
    }

    private static long longOf(Document stored, String field) {
        IndexableField f = stored.getField(field);
        if (f == null || f.numericValue() == null) {
            throw new BrokenInvariant("stored document [" + stored.get(ID) + "] has no [" + field + "]");
        }
        return f.numericValue().longValue();
    }
}
