package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.BooleanField;
import io.qdrant.esgateway.domain.index.FieldMapping.DateField;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.FieldMapping.ObjectField;
import io.qdrant.esgateway.domain.index.FieldMapping.Similarity;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Strict reader of a {@code mappings} body, with Elasticsearch's error messages. Field types and parameters the
 * gateway does not implement are rejected by name, never dropped.
 */
final class MappingParser {
    /** Field types Elasticsearch has that the gateway rejects, so the message can say "not supported" not "unknown". */
    private static final Set<String> KNOWN_ES_TYPES = Set.of("nested", "flattened", "geo_point", "geo_shape", "ip",
            "binary", "scaled_float", "unsigned_long", "date_nanos", "wildcard", "constant_keyword",
            "match_only_text", "search_as_you_type", "completion", "token_count", "integer_range", "long_range",
            "float_range", "double_range", "date_range", "ip_range", "alias", "join", "percolator", "rank_feature",
            "rank_features", "sparse_vector", "semantic_text", "histogram", "version", "point", "shape", "annotated_text",
            "aggregate_metric_double", "counted_keyword", "passthrough");
    private static final String SUPPORTED_TYPES =
            "text, keyword, long, integer, short, byte, double, float, half_float, boolean, date, dense_vector, object";
    /** Mapping parameters Elasticsearch has that the gateway does not implement (rejected by name). */
    private static final Set<String> KNOWN_ES_PARAMETERS = Set.of("index", "doc_values", "store", "null_value",
            "copy_to", "coerce", "ignore_malformed", "search_analyzer", "search_quote_analyzer", "normalizer", "norms",
            "boost", "eager_global_ordinals", "similarity", "term_vector", "index_options", "meta",
            "fielddata", "fielddata_frequency_filter", "position_increment_gap",
            "split_queries_on_whitespace", "locale", "element_type", "enabled", "subobjects", "script",
            "on_script_error", "time_series_dimension", "time_series_metric", "dynamic", "properties", "fields",
            "analyzer", "format", "ignore_above", "dims");

    private MappingParser() {
    }

    static Mappings parse(JsonValue json) {
        JsonObject root = JsonReads.object(json, GatewayException::mapperParsing, "[mappings]");
        Optional<Dynamic> dynamic = Optional.empty();
        SortedMap<String, FieldMapping> properties = new TreeMap<>();
        Optional<JsonObject> meta = Optional.empty();
        List<String> unsupported = new ArrayList<>();
        Optional<Boolean> sourceEnabled = Optional.empty();
        List<String> includes = List.of();
        List<String> excludes = List.of();
        Optional<Boolean> routingRequired = Optional.empty();
        List<DynamicTemplate> templates = List.of();
        for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
            switch (e.getKey()) {
                case "_source" -> {
                    JsonObject s = JsonReads.object(e.getValue(), GatewayException::mappingFailed, "[_source]");
                    for (Map.Entry<String, JsonValue> p : s.members().entrySet()) {
                        switch (p.getKey()) {
                            case "enabled" -> {
                                sourceEnabled = Optional.of(FieldOptionParser.bool("_source", "enabled",
                                        p.getValue()));
                            }
                            case "includes" -> includes = FieldOptionParser.copyTo("_source", p.getValue());
                            case "excludes" -> excludes = FieldOptionParser.copyTo("_source", p.getValue());
                            case "mode" -> throw GatewayException.unsupported("[_source.mode]");
                            default -> throw GatewayException.mappingFailed("unknown parameter [" + p.getKey()
                                    + "] on mapper [_source] of type [_source]");
                        }
                    }
                }
                case "_routing" -> {
                    JsonObject r = JsonReads.object(e.getValue(), GatewayException::mappingFailed, "[_routing]");
                    for (Map.Entry<String, JsonValue> p : r.members().entrySet()) {
                        if (!p.getKey().equals("required")) {
                            throw GatewayException.mappingFailed("unknown parameter [" + p.getKey()
                                    + "] on mapper [_routing] of type [_routing]");
                        }
                        routingRequired = Optional.of(FieldOptionParser.bool("_routing", "required", p.getValue()));
                    }
                }
                case "dynamic_templates" -> templates = DynamicTemplate.parseAll(e.getValue());
                case "dynamic" -> dynamic = Optional.of(dynamic(e.getValue(), "_doc"));
                case "properties" -> properties = properties(e.getValue(), "_doc");
                case "_meta" -> meta = Optional.of(JsonReads.object(e.getValue(), GatewayException::mappingFailed,
                        "[_meta]"));
                case "date_detection", "numeric_detection", "runtime",
                     "_field_names", "_data_stream_timestamp", "subobjects", "enabled" ->
                        throw GatewayException.unsupported("root mapping parameter [" + e.getKey() + "]");
                default -> unsupported.add(e.getKey() + " : " + javaText(e.getValue()));
            }
        }
        if (!unsupported.isEmpty()) {
            throw GatewayException.mappingFailed("Root mapping definition has unsupported parameters:  ["
                    + String.join("] [", unsupported) + "]");
        }
        return new Mappings(dynamic, properties, meta, new RootOptions(sourceEnabled, includes, excludes,
                routingRequired, templates));
    }

    /** A value as Elasticsearch prints it in this message: Java's text of the parsed map ({@code {type=text}}). */
    private static String javaText(JsonValue value) {
        return switch (value) {
            case JsonObject o -> o.members().entrySet().stream().map(e -> e.getKey() + "=" + javaText(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            case JsonArray a -> a.elements().stream().map(MappingParser::javaText)
                    .collect(Collectors.joining(", ", "[", "]"));
            case JsonString s -> s.value();
            default -> Json.write(value);
        };
    }

    private static Dynamic dynamic(JsonValue value, String owner) {
        String text = JsonReads.text(value).orElse("");
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> Dynamic.TRUE;
            case "false" -> Dynamic.FALSE;
            case "strict" -> Dynamic.STRICT;
            case "runtime" -> throw GatewayException.unsupported("[dynamic: runtime] on [" + owner + "]");
            default -> throw GatewayException.mappingFailed("Could not convert [dynamic] to boolean or \"strict\" on ["
                    + owner + "]: [" + text + "]");
        };
    }

    private static SortedMap<String, FieldMapping> properties(JsonValue value, String owner) {
        if (!(value instanceof JsonObject object)) {
            throw GatewayException.mappingFailed("Expected map for property [properties] on field [" + owner
                    + "] but got a " + value.tokenName());
        }
        SortedMap<String, FieldMapping> out = new TreeMap<>();
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String name = e.getKey();
            if (name.isEmpty() || name.isBlank()) {
                throw GatewayException.mappingFailed("field name cannot be an empty string");
            }
            int dot = name.indexOf('.');
            if (dot > 0 && dot < name.length() - 1) {
                // "a.b": {...} is shorthand for "a": {"properties": {"b": {...}}}
                String head = name.substring(0, dot);
                FieldMapping inner = new ObjectField(Optional.empty(),
                        properties(new JsonObject(Map.of(name.substring(dot + 1), e.getValue())), head));
                FieldMapping previous = out.get(head);
                out.put(head, previous == null ? inner : mergeExpanded(head, previous, inner));
                continue;
            }
            if (dot >= 0) {
                throw GatewayException.mappingFailed("field name cannot contain only whitespace or dots: [" + name + "]");
            }
            FieldMapping field = field(name, e.getValue(), false);
            FieldMapping previous = out.get(name);
            out.put(name, previous == null ? field : mergeExpanded(name, previous, field));
        }
        return out;
    }

    private static FieldMapping mergeExpanded(String name, FieldMapping a, FieldMapping b) {
        return new Mappings(Optional.empty(), new TreeMap<>(Map.of(name, a)), Optional.empty())
                .merge(new Mappings(Optional.empty(), new TreeMap<>(Map.of(name, b)), Optional.empty()))
                .properties().get(name);
    }

    /** One field definition, as {@code properties} reads it. */
    static FieldMapping field(String name, JsonValue value) {
        return field(name, value, false);
    }

    private static FieldMapping field(String name, JsonValue value, boolean multiField) {
        if (!(value instanceof JsonObject def)) {
            throw GatewayException.mappingFailed("Expected map for property [fields] on field [" + name + "] but got a "
                    + value.tokenName());
        }
        JsonValue typeValue = def.get("type");
        String type;
        if (typeValue == null) {
            // Elasticsearch derives [object] only from [properties], or from a lone [enabled]
            if (!def.has("properties") && !(def.members().size() == 1 && def.has("enabled"))) {
                throw GatewayException.mappingFailed("No type specified for field [" + name + "]");
            }
            type = "object";
        } else if (typeValue instanceof JsonString s) {
            type = s.value();
        } else {
            throw GatewayException.mappingFailed("No type specified for field [" + name + "]");
        }
        Params p = new Params(name, type, def);
        FieldMapping field = switch (type) {
            case "text" -> {
                TextField text = AnalysisReferences.textField(name, p.string("analyzer"), p.string("search_analyzer"),
                        p.string("search_quote_analyzer"), p.multiFields());
                Optional<String> similarity = p.string("similarity");
                FieldOptions textFieldOptions = p.options(false, false, false, null);
                TextOptions textOptions = p.textOptions(textFieldOptions.index());
                yield new TextField(text.analyzer(), text.fields(), text.searchAnalyzer(), text.searchQuoteAnalyzer(),
                        textFieldOptions, similarity, textOptions);
            }
            case "keyword" -> {
                Optional<Integer> ignoreAbove = p.positiveInt("ignore_above");
                Optional<io.qdrant.esgateway.domain.analysis.KeywordNormalizer> normalizer = p.string("normalizer")
                        .map(io.qdrant.esgateway.domain.analysis.KeywordNormalizer::named);
                Optional<String> similarity = p.string("similarity");
                yield new KeywordField(ignoreAbove, p.multiFields(), p.options(true, true, false,
                        FieldOptionParser::keywordNull), normalizer, similarity);
            }
            case "long", "integer", "short", "byte", "double", "float", "half_float" -> {
                NumberType numberType = NumberType.valueOf(type.toUpperCase(Locale.ROOT));
                yield new NumberField(numberType, p.options(true, true, true,
                        v -> FieldOptionParser.numberNull(numberType, v)));
            }
            case "boolean" -> new BooleanField(p.options(true, true, false, FieldOptionParser::booleanNull)
                    .withIgnoreMalformed(p.bool("ignore_malformed")));
            case "date" -> {
                Optional<String> format = p.string("format").map(f -> dateFormat(name, f));
                yield new DateField(format, p.options(true, true, false,
                        v -> FieldOptionParser.dateNull(name, format, v)).withIgnoreMalformed(p.bool("ignore_malformed")));
            }
            case "dense_vector" -> denseVector(name, p);
            case "object" -> {
                if (multiField) {
                    throw GatewayException.mappingFailed("Type [object] cannot be used in multi field");
                }
                Optional<Dynamic> dynamic = p.take("dynamic").map(v -> dynamic(v, name));
                SortedMap<String, FieldMapping> props = p.take("properties").map(v -> properties(v, name))
                        .orElseGet(TreeMap::new);
                yield new ObjectField(dynamic, props);
            }
            default -> throw GatewayException.mappingFailed(KNOWN_ES_TYPES.contains(type)
                    ? "the gateway does not support field type [" + type + "] (field [" + name + "]); supported types: "
                    + SUPPORTED_TYPES
                    : "No handler for type [" + type + "] declared on field [" + name + "]");
        };
        p.requireAllConsumed();
        return field;
    }

    /** A date format Elasticsearch would accept, or its error ("Error parsing [format] on field [d]: …"). */
    private static String dateFormat(String field, String format) {
        try {
            DateFormat.validate(format);
        } catch (GatewayException e) {
            if (e.kind() == ErrorKind.ILLEGAL_ARGUMENT) {
                throw GatewayException.mappingFailed("Error parsing [format] on field [" + field + "]: " + e.reason());
            }
            throw e;
        }
        return format;
    }

    private static DenseVectorField denseVector(String name, Params p) {
        boolean dimsGiven = p.remaining.containsKey("dims");
        int dims = p.take("dims").map(v -> JsonReads.integer(v).orElseThrow(() -> GatewayException.mappingFailed(
                "[dims] on field [" + name + "] must be an integer"))).map(Long::intValue).orElse(0);
        if (dimsGiven && (dims < 1 || dims > DenseVectorField.MAX_DIMS)) {
            throw GatewayException.mappingFailed("The number of dimensions should be in the range [1, "
                    + DenseVectorField.MAX_DIMS + "] but was [" + dims + "]");
        }
        Optional<String> elementType = p.string("element_type");
        if (elementType.isPresent() && !elementType.get().equals("float")) {
            throw GatewayException.unsupported("[element_type: " + elementType.get() + "] on field [" + name
                    + "] (only [float])");
        }
        boolean index = p.take("index").map(v -> JsonReads.bool(v).orElseThrow(() -> GatewayException.mappingFailed(
                "[index] on field [" + name + "] must be a boolean"))).orElse(true);
        Optional<String> givenSimilarity = p.string("similarity");
        if (!index && givenSimilarity.isPresent()) {
            // ES: similarity and index_options only mean something for an indexed vector
            throw GatewayException.mappingFailed("Field [similarity] requires field [index] to be configured as [true]");
        }
        Similarity similarity = givenSimilarity.map(s -> {
            try {
                return Similarity.valueOf(s.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw GatewayException.mappingFailed("Unknown value [" + s + "] for field [similarity] - accepted values"
                        + " are [l2_norm, dot_product, cosine, max_inner_product]");
            }
        }).orElse(Similarity.COSINE);
        Optional<JsonObject> options = p.take("index_options").map(v -> {
            if (!index) {
                throw GatewayException.mappingIllegal("Field [index_options] can only be specified for a field of type"
                        + " [dense_vector] when it is indexed");
            }
            return VectorIndexOptions.parse(name, JsonReads.object(v, GatewayException::mappingFailed,
                    "[index_options]"), dimsGiven ? dims : 0);
        });
        return new DenseVectorField(dims, similarity, index, options);
    }

    /** The parameters of one field definition; each read consumes one, the rest are errors. */
    private static final class Params {
        private final String field;
        private final String type;
        private final Map<String, JsonValue> remaining;

        Params(String field, String type, JsonObject def) {
            this.field = field;
            this.type = type;
            this.remaining = new java.util.LinkedHashMap<>(def.members());
            remaining.remove("type");
        }

        Optional<JsonValue> take(String key) {
            return Optional.ofNullable(remaining.remove(key));
        }

        Optional<String> string(String key) {
            return take(key).map(v -> JsonReads.text(v).orElseThrow(() -> GatewayException.mappingFailed(
                    "[" + key + "] on mapper [" + field + "] of type [" + type + "] must be a string")));
        }

        Optional<Integer> positiveInt(String key) {
            return take(key).map(v -> {
                long n = JsonReads.integer(v).orElseThrow(() -> GatewayException.mappingFailed(
                        "Failed to parse value [" + JsonReads.text(v).orElse(v.tokenName()) + "] as only integers are"
                                + " allowed for [" + key + "] on field [" + field + "]"));
                if (n < 0 || n > Integer.MAX_VALUE) {
                    throw GatewayException.mappingFailed("[" + key + "] must be positive, got [" + n + "]");
                }
                return (int) n;
            });
        }

        SortedMap<String, FieldMapping> multiFields() {
            SortedMap<String, FieldMapping> out = new TreeMap<>();
            take("fields").ifPresent(v -> {
                if (!(v instanceof JsonObject o)) {
                    throw GatewayException.mappingFailed("Expected map for property [fields] on field [" + field
                            + "] but got a " + v.tokenName());
                }
                o.members().forEach((name, def) -> {
                    if (name.contains(".")) {
                        throw GatewayException.mappingFailed("Field name [" + name + "] which is a multi field of ["
                                + field + "] cannot contain '.'");
                    }
                    out.put(name, field(name, def, true));
                });
            });
            return out;
        }

        Optional<Boolean> bool(String key) {
            return take(key).map(v -> FieldOptionParser.bool(field, key, v));
        }

        /**
         * {@code position_increment_gap}, {@code index_prefixes}, {@code index_phrases} and {@code index_options}, with
         * ES's checks ({@code indexed}: the field's {@code index}).
         */
        TextOptions textOptions(boolean indexed) {
            Optional<String> indexOptions = take("index_options").map(v -> JsonReads.text(v).orElseThrow(() ->
                    GatewayException.mappingFailed("Failed to parse value [" + v.tokenName() + "] for field"
                            + " [index_options]")));
            Optional<Integer> gap = positiveInt("position_increment_gap");
            Optional<TextOptions.IndexPrefixes> prefixes = take("index_prefixes").filter(v ->
                    !(v instanceof JsonValue.JsonNull)).map(this::indexPrefixes);
            boolean phrases = bool("index_phrases").orElse(false);
            boolean positions = true;
            if (indexOptions.isPresent()) {
                switch (indexOptions.get()) {
                    case "positions", "offsets" -> {
                    }
                    case "docs", "freqs" -> positions = false;
                    default -> throw GatewayException.mappingFailed("Unknown value [" + indexOptions.get()
                            + "] for field [index_options] - accepted values are [positions, docs, freqs, offsets]");
                }
            }
            if (!positions && gap.isPresent()) {
                throw GatewayException.mappingIllegal("Cannot set position_increment_gap on field [" + field
                        + "] without positions enabled");
            }
            if (phrases && !indexed) {
                throw GatewayException.mappingIllegal("Cannot set index_phrases on unindexed field [" + field + "]");
            }
            if (phrases && !positions) {
                throw GatewayException.mappingIllegal("Cannot set index_phrases on field [" + field
                        + "] if positions are not enabled");
            }
            if (prefixes.isPresent() && !indexed) {
                throw GatewayException.mappingIllegal("Cannot set index_prefixes on unindexed field [" + field + "]");
            }
            if (!positions) {
                throw GatewayException.unsupported("[index_options: " + indexOptions.get() + "] on field [" + field
                        + "] of type [text]");
            }
            TextOptions out = new TextOptions(gap, prefixes, phrases, indexOptions);
            return out.equals(TextOptions.DEFAULT) ? TextOptions.DEFAULT : out;
        }

        private TextOptions.IndexPrefixes indexPrefixes(JsonValue v) {
            if (!(v instanceof JsonObject o)) {
                throw GatewayException.mappingFailed("Expected map for property [index_prefixes] on field [" + field
                        + "] but got a " + v.tokenName());
            }
            int min = TextOptions.IndexPrefixes.DEFAULT_MIN_CHARS;
            int max = TextOptions.IndexPrefixes.DEFAULT_MAX_CHARS;
            List<String> unknown = new ArrayList<>();
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                if (!e.getKey().equals("min_chars") && !e.getKey().equals("max_chars")) {
                    unknown.add(e.getKey() + " : " + javaText(e.getValue()));
                }
            }
            if (!unknown.isEmpty()) {
                throw GatewayException.mappingFailed("Mapping definition for [" + field
                        + "] has unsupported parameters:  [" + String.join("] [", unknown) + "]");
            }
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                long n = JsonReads.integer(e.getValue()).orElseThrow(() -> GatewayException.mappingFailed(
                        "Failed to parse value [" + JsonReads.text(e.getValue()).orElse(e.getValue().tokenName())
                                + "] as only integers are allowed for [" + e.getKey() + "] on field [" + field + "]"));
                switch (e.getKey()) {
                    case "min_chars" -> min = (int) n;
                    case "max_chars" -> max = (int) n;
                    default -> throw new IllegalStateException("checked above");
                }
            }
            if (min < 1) {
                throw GatewayException.mappingIllegal("min_chars [" + min + "] must be greater than zero");
            }
            if (max >= 20) {
                throw GatewayException.mappingIllegal("max_chars [" + max + "] must be less than 20");
            }
            if (min > max) {
                throw GatewayException.mappingIllegal("min_chars [" + min + "] must be less than max_chars [" + max
                        + "]");
            }
            return new TextOptions.IndexPrefixes(min, max);
        }

        /**
         * The common leaf parameters this type has: {@code index}, {@code store} and {@code copy_to} always;
         * {@code doc_values} and {@code null_value} (checked by {@code nullValue}) when {@code docValues};
         * {@code coerce} and {@code ignore_malformed} when {@code numeric}. Parameters a type lacks stay unconsumed
         * (ES's "unknown parameter").
         */
        FieldOptions options(boolean docValues, boolean nullValue, boolean numeric,
                             java.util.function.UnaryOperator<JsonValue> nullValueCheck) {
            boolean index = bool("index").orElse(true);
            boolean values = docValues ? bool("doc_values").orElse(true) : true;
            boolean store = bool("store").orElse(false);
            Optional<JsonValue> nulls = nullValue ? take("null_value").filter(v -> !(v instanceof JsonValue.JsonNull))
                    .map(nullValueCheck) : Optional.empty();
            List<String> copyTo = take("copy_to").map(v -> FieldOptionParser.copyTo(field, v)).orElse(List.of());
            Optional<Boolean> coerce = numeric ? bool("coerce") : Optional.empty();
            Optional<Boolean> ignoreMalformed = numeric ? bool("ignore_malformed") : Optional.empty();
            FieldOptions options = new FieldOptions(index, values, store, nulls, copyTo, coerce, ignoreMalformed);
            return options.equals(FieldOptions.DEFAULT) ? FieldOptions.DEFAULT : options;
        }

        void requireAllConsumed() {
            for (String key : remaining.keySet()) {
                if (FieldOptionParser.COMMON.contains(key) && !type.equals("object")) {
                    throw GatewayException.mappingFailed("unknown parameter [" + key + "] on mapper [" + field
                            + "] of type [" + type + "]");
                }
                if (KNOWN_ES_PARAMETERS.contains(key)) {
                    throw GatewayException.unsupported("mapping parameter [" + key + "] on field [" + field
                            + "] of type [" + type + "]");
                }
                throw GatewayException.mappingFailed("unknown parameter [" + key + "] on mapper [" + field
                        + "] of type [" + type + "]");
            }
        }
    }
}
