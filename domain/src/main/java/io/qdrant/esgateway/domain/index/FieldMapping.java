package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One field of a mapping. The set is closed: every backend and every later translation switches over it without a
 * {@code default}, so adding a field type fails compilation wherever it must be handled.
 */
public sealed interface FieldMapping {

    /** The Elasticsearch type name ({@code text}, {@code long}, …). */
    String type();

    /** The mapping as Elasticsearch renders it in {@code GET /{index}/_mapping}. */
    JsonObject toJson();

    /** The common leaf parameters ({@code index}, {@code doc_values}, {@code null_value}, …); defaults if none. */
    default FieldOptions options() {
        return FieldOptions.DEFAULT;
    }

    /**
     * Analysed full text, optionally with multi-fields such as a {@code keyword} sub-field. The analyzers are names
     * of the index's analysis settings (absent: the index's default, {@code standard} unless the index defines
     * {@code default}); the search analyzers default to the index analyzer.
     */
    record TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields, Optional<String> searchAnalyzer,
                     Optional<String> searchQuoteAnalyzer, FieldOptions options, Optional<String> similarity,
                     TextOptions text)
            implements FieldMapping {
        public TextField {
            fields = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(fields));
        }

        /** A text field without {@code position_increment_gap}, {@code index_prefixes} or {@code index_phrases}. */
        public TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields,
                         Optional<String> searchAnalyzer, Optional<String> searchQuoteAnalyzer, FieldOptions options,
                         Optional<String> similarity) {
            this(analyzer, fields, searchAnalyzer, searchQuoteAnalyzer, options, similarity, TextOptions.DEFAULT);
        }

        /** A text field with the index's default similarity. */
        public TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields,
                         Optional<String> searchAnalyzer, Optional<String> searchQuoteAnalyzer, FieldOptions options) {
            this(analyzer, fields, searchAnalyzer, searchQuoteAnalyzer, options, Optional.empty());
        }

        /** A text field with no search analyzers of its own and the default leaf parameters. */
        public TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields) {
            this(analyzer, fields, Optional.empty(), Optional.empty(), FieldOptions.DEFAULT);
        }

        /** A text field with the default leaf parameters. */
        public TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields,
                         Optional<String> searchAnalyzer, Optional<String> searchQuoteAnalyzer) {
            this(analyzer, fields, searchAnalyzer, searchQuoteAnalyzer, FieldOptions.DEFAULT);
        }

        /** A text field with no search analyzers of its own. */
        public TextField(Optional<String> analyzer, SortedMap<String, FieldMapping> fields, FieldOptions options) {
            this(analyzer, fields, Optional.empty(), Optional.empty(), options);
        }

        @Override
        public String type() {
            return "text";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            analyzer.ifPresent(a -> b.put("analyzer", a));
            searchAnalyzer.ifPresent(a -> b.put("search_analyzer", a));
            searchQuoteAnalyzer.ifPresent(a -> b.put("search_quote_analyzer", a));
            similarity.ifPresent(a -> b.put("similarity", a));
            text.render(b);
            options.render(b);
            if (!fields.isEmpty()) {
                b.put("fields", render(fields));
            }
            return b.build();
        }
    }

    /**
     * An exact value; values longer than {@code ignore_above} characters are not indexed; a {@code normalizer}
     * normalizes indexed values and query values.
     */
    record KeywordField(Optional<Integer> ignoreAbove, SortedMap<String, FieldMapping> fields, FieldOptions options,
                        Optional<io.qdrant.esgateway.domain.analysis.KeywordNormalizer> normalizer,
                        Optional<String> similarity)
            implements FieldMapping {
        public KeywordField {
            fields = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(fields));
        }

        /** A keyword field with the index's default similarity. */
        public KeywordField(Optional<Integer> ignoreAbove, SortedMap<String, FieldMapping> fields, FieldOptions options,
                            Optional<io.qdrant.esgateway.domain.analysis.KeywordNormalizer> normalizer) {
            this(ignoreAbove, fields, options, normalizer, Optional.empty());
        }

        public KeywordField(Optional<Integer> ignoreAbove, SortedMap<String, FieldMapping> fields,
                            FieldOptions options) {
            this(ignoreAbove, fields, options, Optional.empty());
        }

        /** {@code value} as the field indexes and searches it (normalized when the field has a normalizer). */
        public String normalize(String value) {
            return normalizer.isEmpty() ? value : normalizer.get().apply(value);
        }

        public KeywordField(Optional<Integer> ignoreAbove, SortedMap<String, FieldMapping> fields) {
            this(ignoreAbove, fields, FieldOptions.DEFAULT);
        }

        @Override
        public String type() {
            return "keyword";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            ignoreAbove.ifPresent(n -> b.put("ignore_above", n));
            normalizer.ifPresent(n -> b.put("normalizer", n.name()));
            similarity.ifPresent(s -> b.put("similarity", s));
            options.render(b);
            if (!fields.isEmpty()) {
                b.put("fields", render(fields));
            }
            return b.build();
        }
    }

    /**
     * The mapping a sort's {@code unmapped_type} stands for, on an index without the field (ES's error for an unknown
     * type).
     */
    static FieldMapping ofUnmappedType(String type) {
        return switch (type) {
            case "keyword", "string" -> new KeywordField(Optional.empty(), new java.util.TreeMap<>());
            case "long", "integer", "short", "byte", "double", "float", "half_float" ->
                    new NumberField(NumberType.valueOf(type.toUpperCase(java.util.Locale.ROOT)));
            case "date" -> new DateField(Optional.empty());
            case "boolean" -> new BooleanField();
            default -> throw io.qdrant.esgateway.domain.error.GatewayException.illegalArgument(
                    "No mapper found for type [" + type + "]");
        };
    }

    enum NumberType {
        LONG, INTEGER, SHORT, BYTE, DOUBLE, FLOAT, HALF_FLOAT;

        public String esName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public boolean isIntegral() {
            return this == LONG || this == INTEGER || this == SHORT || this == BYTE;
        }
    }

    record NumberField(NumberType numberType, FieldOptions options) implements FieldMapping {
        public NumberField(NumberType numberType) {
            this(numberType, FieldOptions.DEFAULT);
        }

        @Override
        public String type() {
            return numberType.esName();
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            options.render(b);
            return b.build();
        }
    }

    record BooleanField(FieldOptions options) implements FieldMapping {
        public BooleanField() {
            this(FieldOptions.DEFAULT);
        }

        @Override
        public String type() {
            return "boolean";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            options.render(b);
            return b.build();
        }
    }

    /** A date; {@code format} is Elasticsearch's format string, absent for the default. */
    record DateField(Optional<String> format, FieldOptions options) implements FieldMapping {
        public static final String DEFAULT_FORMAT = "strict_date_optional_time||epoch_millis";

        public DateField(Optional<String> format) {
            this(format, FieldOptions.DEFAULT);
        }

        @Override
        public String type() {
            return "date";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            format.ifPresent(f -> b.put("format", f));
            options.render(b);
            return b.build();
        }
    }

    enum Similarity {
        L2_NORM, DOT_PRODUCT, COSINE, MAX_INNER_PRODUCT;

        public String esName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A float vector; {@code indexOptions} (HNSW {@code m}, {@code ef_construction}) are echoed as given. {@code dims}
     * 0: not given yet, fixed by the first indexed vector (as Elasticsearch 8 does).
     */
    record DenseVectorField(int dims, Similarity similarity, boolean index, Optional<JsonObject> indexOptions)
            implements FieldMapping {
        public static final int MAX_DIMS = 4096;

        /** Whether the number of dimensions is known (given, or fixed by the first vector). */
        public boolean hasDims() {
            return dims > 0;
        }

        @Override
        public String type() {
            return "dense_vector";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("type", type());
            if (dims > 0) {
                b.put("dims", dims);
            }
            b.put("index", index);
            if (index) {
                b.put("similarity", similarity.esName());
            }
            indexOptions.ifPresent(o -> b.put("index_options", o));
            return b.build();
        }
    }

    /** An object with its own properties; {@code dynamic} absent means inherited from the parent. */
    record ObjectField(Optional<Dynamic> dynamic, SortedMap<String, FieldMapping> properties) implements FieldMapping {
        public ObjectField {
            properties = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(properties));
        }

        @Override
        public String type() {
            return "object";
        }

        @Override
        public JsonObject toJson() {
            JsonObjectBuilder b = JsonObjectBuilder.object();
            if (properties.isEmpty()) {
                // as in Elasticsearch: without properties nothing else says this is an object
                b.put("type", type());
            }
            dynamic.ifPresent(d -> b.put("dynamic", d.esName()));
            if (!properties.isEmpty()) {
                b.put("properties", render(properties));
            }
            return b.build();
        }
    }

    private static JsonObject render(Map<String, FieldMapping> fields) {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        fields.forEach((name, field) -> b.put(name, (JsonValue) field.toJson()));
        return b.build();
    }
}
