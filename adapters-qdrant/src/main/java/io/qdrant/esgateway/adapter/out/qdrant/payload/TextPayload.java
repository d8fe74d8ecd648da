package io.qdrant.esgateway.adapter.out.qdrant.payload;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.FieldTerms;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.index.TextOptions;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * What a point keeps so that the gateway can match full-text queries and compute Elasticsearch's BM25 statistics
 * exactly ({@link RelevanceScorer#terms}):
 * <ul>
 *   <li>{@code _t.<field>} (text fields) — the distinct analysed tokens, a keyword-indexed array: a full-text query's
 *       candidates are the points holding its tokens, and a token's {@code docFreq} is an exact {@code count};</li>
 *   <li>{@code _n.<field>} (text, keyword and boolean fields) — the field's length in the document (tokens for text,
 *       distinct values for keyword and boolean, as Lucene counts them), as an integer-indexed array of its set bits
 *       plus {@code -1}: one exact {@code facet} over it gives the number of documents with the field ({@code -1}'s
 *       count) and the sum of the lengths ({@code Σ 2^bit × count}), whatever the number of distinct lengths.</li>
 * </ul>
 * A text field's hidden fields ({@code <field>._index_phrase} shingles, {@code <field>._index_prefix} prefixes) have
 * both as well, under those names.
 * Both are derived from the same indexed values as {@code _f}, so updates and deletes keep the statistics exact.
 */
public final class TextPayload {
    public static final String TERMS = "_t";
    static final String LENGTHS = "_n";
    /** The element of {@code _n.<field>} that marks "the document has the field". */
    public static final int PRESENT = -1;

    private TextPayload() {
    }

    public static String termsPath(String field) {
        return TERMS + "." + QdrantLayout.segment(field);
    }

    public static String lengthsPath(String field) {
        return LENGTHS + "." + QdrantLayout.segment(field);
    }

    /** Adds {@code _t} and {@code _n} for the document's values to {@code payload}. */
    public static void add(ObjectNode payload, RelevanceScorer scorer, IndexMetadata index,
                           List<IndexedValue> values) {
        Mappings mappings = index.mappings();
        Map<String, FieldTerms> terms = scorer.terms(index, values);
        ObjectNode tokens = payload.putObject(TERMS);
        ObjectNode lengths = payload.putObject(LENGTHS);
        terms.forEach((field, t) -> {
            if (mappings.field(field).orElse(null) instanceof FieldMapping.TextField
                    || TextOptions.hidden(mappings, field).isPresent()) {
                ArrayNode array = tokens.putArray(field);
                t.terms().stream().sorted().forEach(array::add);
            }
            lengths.set(field, bits(t.length()));
        });
    }

    /** {@code -1} and the set bits of {@code length}. */
    static ArrayNode bits(int length) {
        ArrayNode out = QdrantClient.NODES.arrayNode();
        out.add(PRESENT);
        for (int bit = 0; bit < 31; bit++) {
            if ((length & (1 << bit)) != 0) {
                out.add(bit);
            }
        }
        return out;
    }

    /** The payload indexes {@code _t}/{@code _n} need, by payload key, for every field of the mapping. */
    public static void payloadIndexes(String prefix, SortedMap<String, FieldMapping> fields, Map<String, ObjectNode> out) {
        fields.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case FieldMapping.TextField t -> {
                    out.put(termsPath(path), schema("keyword"));
                    out.put(lengthsPath(path), lengthSchema());
                    if (t.text().indexPhrases()) {
                        out.put(termsPath(path + TextOptions.PHRASE_SUFFIX), schema("keyword"));
                        out.put(lengthsPath(path + TextOptions.PHRASE_SUFFIX), lengthSchema());
                    }
                    if (t.text().indexPrefixes().isPresent()) {
                        out.put(termsPath(path + TextOptions.PREFIX_SUFFIX), schema("keyword"));
                        out.put(lengthsPath(path + TextOptions.PREFIX_SUFFIX), lengthSchema());
                    }
                    payloadIndexes(path + ".", t.fields(), out);
                }
                case FieldMapping.KeywordField k -> {
                    out.put(lengthsPath(path), lengthSchema());
                    payloadIndexes(path + ".", k.fields(), out);
                }
                case FieldMapping.BooleanField b -> out.put(lengthsPath(path), lengthSchema());
                case FieldMapping.ObjectField o -> payloadIndexes(path + ".", o.properties(), out);
                case FieldMapping.NumberField n -> {
                }
                case FieldMapping.DateField d -> {
                }
                case FieldMapping.DenseVectorField v -> {
                }
            }
        });
    }

    public static Map<String, ObjectNode> payloadIndexes(Mappings mappings) {
        Map<String, ObjectNode> out = new java.util.LinkedHashMap<>();
        payloadIndexes("", mappings.properties(), out);
        // the indexed metadata keywords score as any keyword
        java.util.SortedMap<String, FieldMapping> metadata = new java.util.TreeMap<>();
        for (String field : List.of(Mappings.IGNORED, Mappings.ROUTING)) {
            metadata.put(field, mappings.field(field).orElseThrow());
        }
        payloadIndexes("", metadata, out);
        return out;
    }

    private static ObjectNode schema(String type) {
        ObjectNode s = QdrantClient.object();
        s.put("type", type);
        return s;
    }

    /** Facets need lookup; nothing ranges over lengths. */
    private static ObjectNode lengthSchema() {
        ObjectNode s = schema("integer");
        s.put("lookup", true);
        s.put("range", false);
        return s;
    }
}
