package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Dynamic;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.BooleanField;
import io.qdrant.esgateway.domain.index.FieldMapping.DateField;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberField;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.FieldMapping.ObjectField;
import io.qdrant.esgateway.domain.index.FieldMapping.Similarity;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import io.qdrant.esgateway.domain.index.FieldOptions;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks a document's {@code _source} against its index's mapping, converts every value to its mapped type, and
 * applies Elasticsearch's dynamic mapping to fields the mapping does not know.
 *
 * <p>The rules are Elasticsearch 8.15's: dotted keys are paths into objects; every element of an array is a value of
 * the same field (nested arrays are flattened, an array of objects is parsed object by object); {@code null} and
 * {@code []} produce nothing. Numbers, booleans and dates are coerced as the field mappers coerce them, keywords past
 * {@code ignore_above} are not indexed, and multi-fields ({@code title.keyword}) parse the same value by their own
 * type. A field the mapping does not know follows the {@code dynamic} setting of the nearest object that sets it
 * (the root defaults to {@code true}); a new field's type is decided by its first value in the document, and later
 * values of that field in the same document are parsed with it.
 *
 * <p>Error reasons are Elasticsearch's, prefixed as Elasticsearch prefixes them with the position its parser stood
 * at ({@code [1:15] failed to parse field …}): the start of the offending value, or the closing bracket of an object
 * or array that a leaf field could not read; positions come from the parsed body ({@link JsonValue#at()}) and are
 * left out where the tree has none (a {@code null}, a document built in the gateway).
 */
public final class DocumentParser {
    static final int MAX_TERM_BYTES = 32_766;

    /** Root fields Elasticsearch reserves for metadata; a document may not carry them. */
    private static final Set<String> METADATA_FIELDS = Set.of("_id", "_index", "_routing", "_source", "_seq_no",
            "_version", "_field_names", "_ignored", "_tier", "_nested_path", "_data_stream_timestamp",
            "_ignored_source");

    /**
     * The second of Elasticsearch's dynamic date formats (the first is the default format, which the mapping then
     * leaves out); a string it accepts is mapped as a date with this format.
     */
    private static final String DYNAMIC_SLASH_FORMAT = "yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis";

    private DocumentParser() {
    }

    /**
     * Parses {@code source} as the document {@code id} of an index with {@code mappings}.
     *
     * <p>Failures, as Elasticsearch reports them (reasons without positions):
     * <ul>
     * <li>{@code DOCUMENT_PARSING} "Malformed content, must start with an object" when the source is not an object;
     * <li>{@code DOCUMENT_PARSING} "failed to parse field [f] of type [t] in document with id 'ID'. Preview of
     * field's value: 'v'" caused by the field's own failure: {@code ILLEGAL_ARGUMENT} for Elasticsearch's
     * illegal-argument, number-format and illegal-state causes ("Value [x] is out of range for an integer",
     * "For input string: \"abc\"", "Can't get text on a START_OBJECT"), {@code X_CONTENT_PARSE} for the JSON
     * parser's coercion errors ("Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)",
     * "Current token (VALUE_TRUE) not numeric, can not use numeric value accessors");
     * <li>{@code DOCUMENT_PARSING} "failed to parse: …" caused by the detail for dense_vector problems and bad
     * field names;
     * <li>{@code DOCUMENT_PARSING} "object mapping for [o] tried to parse field [o] as object, but found a concrete
     * value";
     * <li>{@code STRICT_DYNAMIC_MAPPING} "mapping set to strict, dynamic introduction of [f] within [_doc] is not
     * allowed" ({@code within [a.b]} inside the object {@code a.b}), also for {@code null} and {@code []} values.
     * </ul>
     */
    public static ParsedDocument parse(Mappings mappings, JsonValue source, String id) {
        return parse(mappings, source, id, Optional.empty());
    }

    /**
     * As {@link #parse(Mappings, JsonValue, String)}, for a document written with {@code routing}: its value is also
     * indexed as a keyword of the {@code _routing} metadata field ({@link Mappings#ROUTING}), as Elasticsearch
     * indexes it.
     */
    public static ParsedDocument parse(Mappings mappings, JsonValue source, String id, Optional<String> routing) {
        if (!(source instanceof JsonObject root)) {
            throw new GatewayException(ErrorKind.DOCUMENT_PARSING, "Malformed content, must start with an object");
        }
        Run run = new Run(mappings, id);
        run.parseObject(run.root, root);
        // the fields left out are indexed as keywords of the _ignored metadata field, as Elasticsearch indexes them
        for (String field : run.ignored) {
            run.values.add(new IndexedValue.Keyword(Mappings.IGNORED, field));
        }
        routing.ifPresent(r -> run.values.add(new IndexedValue.Keyword(Mappings.ROUTING, r)));
        return new ParsedDocument(root, run.values, run.updatedMappings(), new ArrayList<>(run.ignored));
    }

    /**
     * The fields of a stored document whose values its mapping leaves out ({@code ignore_above},
     * {@code ignore_malformed}), sorted: what Elasticsearch shows as a hit's {@code _ignored}. Empty when the mapping
     * can ignore nothing (no source is parsed then) or the source no longer fits the mapping.
     */
    public static List<String> ignoredFields(Mappings mappings, JsonObject source) {
        if (!mayIgnore(mappings.properties())) {
            return List.of();
        }
        try {
            return parse(mappings, source, "_").ignored();
        } catch (GatewayException e) {
            return List.of();
        }
    }

    private static boolean mayIgnore(java.util.SortedMap<String, FieldMapping> fields) {
        for (FieldMapping field : fields.values()) {
            boolean may = switch (field) {
                case KeywordField k -> k.ignoreAbove().isPresent() || mayIgnore(k.fields());
                case TextField t -> mayIgnore(t.fields());
                case ObjectField o -> mayIgnore(o.properties());
                default -> false;
            };
            if (may || field.options().ignoresMalformed()) {
                return true;
            }
        }
        return false;
    }

    /** What a name resolves to at one object level. */
    private sealed interface Target {
    }

    private record Leaf(FieldMapping mapping) implements Target {
    }

    private record Obj(Level level) implements Target {
    }

    private record Metadata(String name) implements Target {
    }

    /**
     * Fields added by dynamic mapping below one object: a {@link FieldMapping} for a leaf, a nested
     * {@code AddedObject} for an object that is new or that gained fields.
     */
    private static final class AddedObject {
        final Map<String, Object> children = new LinkedHashMap<>();
    }

    /** One parse: the values found so far and the fields added so far. */
    private static final class Run {
        final Mappings mappings;
        final String description;
        final List<IndexedValue> values = new ArrayList<>();
        final Set<String> vectorPaths = new HashSet<>();
        /** Fields with a value left out by {@code ignore_above} or {@code ignore_malformed} (ES's {@code _ignored}). */
        final SortedSet<String> ignored = new TreeSet<>();
        final AddedObject rootAdded = new AddedObject();
        final Level root;
        boolean changed;
        /** Whether a {@code copy_to} value is being parsed (copies are not copied further). */
        boolean copying;

        Run(Mappings mappings, String id) {
            this.mappings = mappings;
            this.description = "document with id '" + id + "'";
            this.root = new Level(this, null, "", "", mappings.dynamic().orElse(Dynamic.TRUE), mappings.properties(),
                    rootAdded);
        }

        Optional<Mappings> updatedMappings() {
            if (!changed) {
                return Optional.empty();
            }
            return Optional.of(mappings.withProperties(merge(mappings.properties(), rootAdded)));
        }

        private static SortedMap<String, FieldMapping> merge(SortedMap<String, FieldMapping> existing,
                                                             AddedObject added) {
            SortedMap<String, FieldMapping> result = new TreeMap<>(existing);
            added.children.forEach((name, node) -> {
                if (node instanceof FieldMapping leaf) {
                    result.put(name, leaf);
                } else {
                    AddedObject inner = (AddedObject) node;
                    if (result.get(name) instanceof ObjectField o) {
                        result.put(name, new ObjectField(o.dynamic(), merge(o.properties(), inner)));
                    } else {
                        result.put(name, new ObjectField(Optional.empty(), merge(new TreeMap<>(), inner)));
                    }
                }
            });
            return result;
        }

        // ---- walking ----------------------------------------------------------------------------------------

        void parseObject(Level level, JsonObject object) {
            int i = 0;
            int size = object.members().size();
            long[] keyAt = object.keyAt();
            for (Map.Entry<String, JsonValue> member : object.members().entrySet()) {
                long at = keyAt != null && i < keyAt.length ? keyAt[i] : 0;
                i++;
                String following = i < size ? "FIELD_NAME" : "END_OBJECT";
                parseMember(level, member.getKey(), at, member.getValue(), following);
            }
        }

        /** One key of an object; a dotted key is the path into objects it names, as Elasticsearch expands it. */
        private void parseMember(Level level, String key, JsonValue value, String following) {
            parseMember(level, key, 0, value, following);
        }

        private void parseMember(Level level, String key, long keyAt, JsonValue value, String following) {
            List<String> path = splitKey(level, key, keyAt);
            if (path.size() == 1) {
                parseNamed(level, path.getFirst(), value, following);
                return;
            }
            JsonValue nested = value;
            for (int i = path.size() - 1; i >= 1; i--) {
                nested = new JsonObject(Map.of(path.get(i), nested));
            }
            parseNamed(level, path.getFirst(), nested, "END_OBJECT");
        }

        private List<String> splitKey(Level level, String key, long keyAt) {
            if (key.isEmpty()) {
                throw wrapped(keyAt, ErrorKind.ILLEGAL_ARGUMENT, "field name cannot be an empty string");
            }
            if (key.indexOf('.') < 0) {
                if (key.isBlank()) {
                    throw new GatewayException(ErrorKind.DOCUMENT_PARSING, Position.prefix(keyAt)
                            + "Field name cannot contain only whitespace: [" + level.childPath(key) + "]");
                }
                return List.of(key);
            }
            List<String> parts = new ArrayList<>();
            int from = 0;
            while (true) {
                int dot = key.indexOf('.', from);
                parts.add(dot < 0 ? key.substring(from) : key.substring(from, dot));
                if (dot < 0) {
                    break;
                }
                from = dot + 1;
            }
            while (!parts.isEmpty() && parts.getLast().isEmpty()) {
                parts.removeLast();
            }
            if (parts.isEmpty()) {
                throw wrapped(keyAt, ErrorKind.ILLEGAL_ARGUMENT, "field name cannot contain only dots");
            }
            for (String part : parts) {
                if (part.isEmpty()) {
                    throw wrapped(keyAt, ErrorKind.ILLEGAL_ARGUMENT, "field name cannot contain only whitespace: ['"
                            + key + "']");
                }
                if (part.isBlank()) {
                    throw wrapped(keyAt, ErrorKind.ILLEGAL_ARGUMENT, "field name starting or ending with a [.] makes "
                            + "object resolution ambiguous: [" + key + "]");
                }
            }
            return parts;
        }

        private void parseNamed(Level level, String name, JsonValue value, String following) {
            switch (value) {
                case JsonObject object -> parseObjectValue(level, name, object);
                case JsonArray array -> parseArrayValue(level, name, array, following);
                case JsonNull ignored -> parseNullValue(level, name);
                default -> parseScalarValue(level, name, value, following);
            }
        }

        private void parseObjectValue(Level level, String name, JsonObject object) {
            Target target = level.lookup(name);
            // Elasticsearch counts the root as 1: an object of this level's children is at depth level.depth + 2
            if (level.depth + 2 > MAPPING_DEPTH_LIMIT && !(target instanceof Leaf)) {
                throw wrapped(object.at(), ErrorKind.ILLEGAL_ARGUMENT, "Limit of mapping depth [" + MAPPING_DEPTH_LIMIT
                        + "] has been exceeded due to object field [" + level.childPath(name) + "]");
            }
            switch (target) {
                case Obj(Level child) -> parseObject(child, object);
                case Leaf(FieldMapping mapping) -> parseLeaf(level.childPath(name), mapping, object,
                        object.members().isEmpty() ? "END_OBJECT" : "FIELD_NAME");
                case Metadata(String field) -> throw metadataField(field, object);
                case null -> {
                    if (level.admitsNewField(name, object.at())) {
                        Optional<FieldMapping> templated = templated(level, name, "object");
                        if (templated.isPresent()) {
                            // a template that maps an object to a leaf type: the leaf then fails on the object
                            level.addLeaf(name, templated.get());
                            parseLeaf(level.childPath(name), templated.get(), object,
                                    object.members().isEmpty() ? "END_OBJECT" : "FIELD_NAME");
                        } else {
                            parseObject(level.addObject(name), object);
                        }
                    }
                }
            }
        }

        private void parseArrayValue(Level level, String name, JsonArray array, String following) {
            Target target = level.lookup(name);
            if (target instanceof Leaf(DenseVectorField vector)) {
                DenseVectorField field = vector;
                if (!field.hasDims()) {
                    if (array.elements().isEmpty()) {
                        return;
                    }
                    // as Elasticsearch 8: the first vector fixes the mapping's dims
                    field = new DenseVectorField(array.elements().size(), vector.similarity(), vector.index(),
                            vector.indexOptions());
                    level.addLeaf(name, field);
                }
                parseVector(level.childPath(name), field, array);
                return;
            }
            if (target == null && !level.admitsNewField(name, array.at())) {
                return;
            }
            List<JsonValue> elements = array.elements();
            for (int i = 0; i < elements.size(); i++) {
                if (target instanceof Obj(Level child) && isConcrete(elements.get(i))) {
                    // Elasticsearch has lost the field's name inside the array by then
                    throw concreteForObject(child, "null", elements.get(i));
                }
                String next = i + 1 < elements.size() ? token(elements.get(i + 1)) : "END_ARRAY";
                parseNamed(level, name, elements.get(i), next);
            }
        }

        private void parseNullValue(Level level, String name) {
            Target target = level.lookup(name);
            switch (target) {
                case Leaf(DenseVectorField vector) -> checkSingleVector(level.childPath(name));
                case Leaf(FieldMapping mapping) when mapping.options().nullValue().isPresent() ->
                        parseLeaf(level.childPath(name), mapping, mapping.options().nullValue().get(), "END_OBJECT");
                case Metadata(String field) -> throw metadataField(field, JsonNull.INSTANCE);
                case null -> level.admitsNewField(name, 0);
                default -> {
                    // a null leaf or object has nothing to index
                }
            }
        }

        private void parseScalarValue(Level level, String name, JsonValue value, String following) {
            Target target = level.lookup(name);
            switch (target) {
                case Obj(Level child) -> throw concreteForObject(child, name, value);
                case Leaf(FieldMapping mapping) -> parseLeaf(level.childPath(name), mapping, value, following);
                case Metadata(String field) -> throw metadataField(field, value);
                case null -> {
                    if (level.admitsNewField(name, value.at())) {
                        FieldMapping mapping = dynamicMapping(level, name, value);
                        level.addLeaf(name, mapping);
                        parseLeaf(level.childPath(name), mapping, value, following);
                    }
                }
            }
        }

        private static boolean isConcrete(JsonValue value) {
            return !(value instanceof JsonObject || value instanceof JsonArray || value instanceof JsonNull);
        }

        private static GatewayException concreteForObject(Level object, String name, JsonValue value) {
            return new GatewayException(ErrorKind.DOCUMENT_PARSING, Position.prefix(value) + "object mapping for ["
                    + object.path + "] tried to parse field [" + name + "] as object, but found a concrete value");
        }

        /**
         * A metadata field inside a document: Elasticsearch's field mapper of that name fails it, and the failure is
         * wrapped as any field's ("failed to parse field [_id] of type [_id] …").
         */
        private GatewayException metadataField(String field, JsonValue value) {
            GatewayException cause = new GatewayException(ErrorKind.DOCUMENT_PARSING, Position.prefix(value)
                    + "Field [" + field + "] is a metadata field and cannot be added inside a document. Use the index "
                    + "API request parameters.");
            return new GatewayException(ErrorKind.DOCUMENT_PARSING, String.format(Locale.ROOT,
                    "%sfailed to parse field [%s] of type [%s] in %s. Preview of field's value: '%s'",
                    Position.prefix(Position.endOf(value)), field, field, description,
                    String.valueOf(javaValue(value))), Map.of(), cause);
        }

        /**
         * The mapping of a new field from its first value: the first matching dynamic template's, else the one
         * {@code dynamic: true} gives.
         */
        private FieldMapping dynamicMapping(Level level, String name, JsonValue value) {
            if (mappings.root().dynamicTemplates().isEmpty()) {
                return dynamicMapping(value);
            }
            FieldMapping detected = dynamicMapping(value);
            String type = switch (detected) {
                case DateField d -> "date";
                case NumberField n -> n.numberType() == NumberType.LONG ? "long" : "double";
                case BooleanField b -> "boolean";
                default -> "string";
            };
            return templated(level, name, type).orElse(detected);
        }

        /** The mapping the first dynamic template matching the new field gives, if any (none for an object). */
        private Optional<FieldMapping> templated(Level level, String name, String type) {
            String path = level.childPath(name);
            for (io.qdrant.esgateway.domain.index.DynamicTemplate t : mappings.root().dynamicTemplates()) {
                if (t.matches(path, name, type)) {
                    return t.mappingFor(name, type);
                }
            }
            return Optional.empty();
        }

        /** The mapping {@code dynamic: true} gives a new field from its first value. */
        private static FieldMapping dynamicMapping(JsonValue value) {
            return switch (value) {
                case JsonString s -> dynamicStringMapping(s.value());
                case JsonNumber n -> n.isIntegral() ? new NumberField(NumberType.LONG)
                        : new NumberField(NumberType.FLOAT);
                case JsonBool b -> new BooleanField();
                default -> throw new IllegalStateException("not a leaf value: " + value.tokenName());
            };
        }

        private static FieldMapping dynamicStringMapping(String text) {
            // numeric_detection is off, and date detection refuses anything that reads as a number
            if (!readsAsNumber(text)) {
                if (DateFormat.defaultFormat().accepts(text)) {
                    return new DateField(Optional.empty());
                }
                if (DateFormat.of(DYNAMIC_SLASH_FORMAT).accepts(text)) {
                    return new DateField(Optional.of(DYNAMIC_SLASH_FORMAT));
                }
            }
            SortedMap<String, FieldMapping> fields = new TreeMap<>();
            fields.put("keyword", new KeywordField(Optional.of(256), new TreeMap<>()));
            return new TextField(Optional.empty(), fields);
        }

        private static boolean readsAsNumber(String text) {
            try {
                Long.parseLong(text);
                return true;
            } catch (NumberFormatException e) {
                // not a long
            }
            try {
                Double.parseDouble(text);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        // ---- leaf values ------------------------------------------------------------------------------------

        /**
         * Lucene (and so Elasticsearch) cannot index a single term over 32,766 UTF-8 bytes; ES fails the document
         * with this message. Checked here so one such value fails only its own item of a bulk request.
         */
        private void checkTermLength(String path, String value) {
            int bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes > MAX_TERM_BYTES) {
                throw GatewayException.illegalArgument("Document contains at least one immense term in field=\""
                        + path + "\" (whose UTF8 encoding is longer than the max length " + MAX_TERM_BYTES
                        + "), all of which were skipped. The prefix of the first immense term is: '"
                        + value.substring(0, Math.min(30, value.length())) + "...', original message: bytes can be at"
                        + " most " + MAX_TERM_BYTES + " in length; got " + bytes);
            }
        }

        /**
         * A scalar or object value of a mapped leaf (arrays and nulls are handled by the caller). {@code following}
         * is the JSON token after the value's first token ({@code FIELD_NAME}, {@code END_OBJECT}, …), which is what
         * Elasticsearch's vector parser reports finding when the value is not an array.
         */
        private void parseLeaf(String path, FieldMapping mapping, JsonValue value, String following) {
            FieldOptions options = mapping.options();
            if (options != FieldOptions.DEFAULT) {
                parseLeafWithOptions(path, mapping, options, value, following);
                return;
            }
            parsePlainLeaf(path, mapping, value, following);
        }

        /**
         * A leaf with non-default parameters: {@code ignore_malformed} drops a scalar value its type cannot read (the
         * document is still indexed, as in Elasticsearch); {@code copy_to} parses the value once more into each target
         * field from the root (mapping it dynamically if needed), without following the targets' own {@code copy_to}.
         */
        private void parseLeafWithOptions(String path, FieldMapping mapping, FieldOptions options, JsonValue value,
                                          String following) {
            if (options.ignoresMalformed() && !(value instanceof JsonObject) && !(value instanceof JsonArray)) {
                int mark = values.size();
                try {
                    parsePlainLeaf(path, mapping, value, following);
                } catch (GatewayException e) {
                    if (e.kind() != ErrorKind.DOCUMENT_PARSING) {
                        throw e;
                    }
                    values.subList(mark, values.size()).clear();
                    ignored.add(path);
                }
            } else {
                parsePlainLeaf(path, mapping, value, following);
            }
            if (!options.copyTo().isEmpty() && !copying) {
                copying = true;
                try {
                    for (String target : options.copyTo()) {
                        parseMember(root, target, value, "END_OBJECT");
                    }
                } finally {
                    copying = false;
                }
            }
        }

        private void parsePlainLeaf(String path, FieldMapping mapping, JsonValue value, String following) {
            switch (mapping) {
                case TextField text -> {
                    values.add(new IndexedValue.Text(path, text(path, mapping, value)));
                    parseMultiFields(path, text.fields(), value, following);
                }
                case KeywordField keyword -> {
                    String s = text(path, mapping, value);
                    if (keyword.ignoreAbove().isEmpty() || s.length() <= keyword.ignoreAbove().get()) {
                        s = keyword.normalize(s);
                        checkTermLength(path, s);
                        values.add(new IndexedValue.Keyword(path, s));
                    } else {
                        ignored.add(path);
                    }
                    parseMultiFields(path, keyword.fields(), value, following);
                }
                case NumberField number -> parseNumber(path, number, value);
                case BooleanField bool -> parseBoolean(path, mapping, value);
                case DateField date -> parseDate(path, date, value);
                case DenseVectorField vector -> {
                    // Elasticsearch reads the components from the token after the value's start
                    checkSingleVector(path);
                    throw wrappedParsing(0, "Failed to parse object: expecting token of type [VALUE_NUMBER] "
                            + "but found [" + following + "]");
                }
                case ObjectField object -> throw new IllegalStateException("objects are levels, not leaves");
            }
        }

        private void parseMultiFields(String path, SortedMap<String, FieldMapping> fields, JsonValue value,
                                      String following) {
            fields.forEach((name, sub) -> parseLeaf(path + "." + name, sub, value, following));
        }

        /** The text Elasticsearch reads from a value: strings as they are, numbers and booleans as written. */
        private String text(String path, FieldMapping mapping, JsonValue value) {
            return switch (value) {
                case JsonString s -> s.value();
                case JsonNumber n -> Json.write(n);
                case JsonBool b -> Boolean.toString(b.value());
                default -> throw fieldFailure(path, mapping, value, cannotGetText(value));
            };
        }

        /** Elasticsearch's parser asked for the text of an object or array: "Can't get text on a START_OBJECT at 1:9". */
        private static GatewayException cannotGetText(JsonValue value) {
            long at = value.at();
            return GatewayException.javaException("illegal_state_exception", "Can't get text on a "
                    + value.tokenName() + (at == 0 ? "" : " at " + Position.line(at) + ":" + Position.column(at)));
        }

        private void parseNumber(String path, NumberField field, JsonValue value) {
            NumberType type = field.numberType();
            if (!field.options().coerces()) {
                checkUncoerced(path, field, value);
            }
            if (value instanceof JsonString s && s.value().isEmpty()) {
                return; // coerce treats an empty string as null
            }
            if (value instanceof JsonObject) {
                throw fieldFailure(path, field, value, GatewayException.illegalArgument("Cannot parse object as number"));
            }
            try {
                IndexedValue parsed = switch (type) {
                    case LONG -> new IndexedValue.LongValue(path, longValue(value));
                    case INTEGER -> new IndexedValue.LongValue(path, intValue(value));
                    case SHORT -> new IndexedValue.LongValue(path, shortValue(value));
                    case BYTE -> new IndexedValue.LongValue(path, byteValue(value));
                    case DOUBLE -> new IndexedValue.DoubleValue(path, doubleValue(value));
                    case FLOAT -> new IndexedValue.FloatValue(path, floatValue(value));
                    case HALF_FLOAT -> new IndexedValue.FloatValue(path, halfFloatValue(value));
                };
                values.add(parsed);
            } catch (GatewayException cause) {
                throw fieldFailure(path, field, value, cause);
            }
        }

        /** {@code coerce: false}: no number from a string, no integer from a fraction (ES's messages). */
        private void checkUncoerced(String path, NumberField field, JsonValue value) {
            String boxed = switch (field.numberType()) {
                case LONG -> "Long";
                case INTEGER, SHORT, BYTE -> "Integer";
                case DOUBLE -> "Double";
                case FLOAT, HALF_FLOAT -> "Float";
            };
            if (value instanceof JsonString) {
                throw fieldFailure(path, field, value, GatewayException.illegalArgument(boxed
                        + " value passed as String"));
            }
            if (value instanceof JsonNumber n && !n.isIntegral() && field.numberType().isIntegral()) {
                double d = n.value().doubleValue();
                if (d != Math.rint(d)) {
                    throw fieldFailure(path, field, value, GatewayException.illegalArgument(Json.write(n)
                            + " cannot be converted to " + boxed + " without data loss"));
                }
            }
        }

        private void parseBoolean(String path, FieldMapping field, JsonValue value) {
            boolean parsed = switch (value) {
                case JsonBool b -> b.value();
                case JsonString s -> switch (s.value()) {
                    case "true" -> true;
                    case "false", "" -> false;
                    default -> throw fieldFailure(path, field, value, GatewayException.illegalArgument(
                            "Failed to parse value [" + s.value() + "] as only [true] or [false] are allowed."));
                };
                default -> throw fieldFailure(path, field, value, xContent("Current token (" + jacksonToken(value)
                        + ") not of boolean type"));
            };
            values.add(new IndexedValue.BooleanValue(path, parsed));
        }

        private void parseDate(String path, DateField field, JsonValue value) {
            String text = switch (value) {
                case JsonString s -> s.value();
                case JsonNumber n -> plainNumber(n);
                case JsonBool b -> Boolean.toString(b.value());
                default -> throw fieldFailure(path, field, value, cannotGetText(value));
            };
            DateFormat format = DateFormat.of(field.format().orElse(DateFormat.DEFAULT_PATTERN));
            try {
                values.add(new IndexedValue.DateValue(path, format.parseMillis(text)));
            } catch (GatewayException cause) {
                throw fieldFailure(path, field, value, withEnclosedParsers(format, cause));
            }
        }

        /**
         * Elasticsearch's date failure over several parsers (a built-in format, or formats joined by {@code ||})
         * carries the formatter's own {@code date_time_parse_exception} "Failed to parse with all enclosed parsers"
         * as its cause.
         */
        private static GatewayException withEnclosedParsers(DateFormat format, GatewayException cause) {
            String pattern = format.pattern();
            if (!cause.reason().startsWith("failed to parse date field [") || cause.gatewayCause() != null
                    || !(pattern.contains("||") || pattern.contains("_"))) {
                return cause;
            }
            return new GatewayException(cause.kind(), cause.reason(), cause.metadata(), GatewayException.javaException(
                    "date_time_parse_exception", "Failed to parse with all enclosed parsers"));
        }

        /** A number as epoch formats read it: digits with an optional fraction, never an exponent. */
        private static String plainNumber(JsonNumber n) {
            return switch (n.value()) {
                case Double d when Double.isFinite(d) -> {
                    String plain = new BigDecimal(Double.toString(d)).toPlainString();
                    yield plain.endsWith(".0") ? plain.substring(0, plain.length() - 2) : plain;
                }
                case BigDecimal d -> d.toPlainString();
                default -> n.value().toString();
            };
        }

        // ---- dense_vector -----------------------------------------------------------------------------------

        private void checkSingleVector(String path) {
            if (vectorPaths.contains(path)) {
                throw wrapped(0, ErrorKind.ILLEGAL_ARGUMENT, "Field [" + path + "] of type [dense_vector] doesn't "
                        + "support indexing multiple values for the same field in the same document");
            }
        }

        private void parseVector(String path, DenseVectorField field, JsonArray array) {
            checkSingleVector(path);
            if (field.index()) {
                // Elasticsearch's codec refuses out-of-range options when it indexes the field's first vector
                io.qdrant.esgateway.domain.index.VectorIndexOptions.checkIndexing(field.indexOptions());
            }
            int dims = field.dims();
            float[] vector = new float[dims];
            float squaredMagnitude = 0;
            int index = 0;
            for (JsonValue element : array.elements()) {
                if (index >= dims) {
                    throw wrapped(element.at(), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [" + path
                            + "] in doc [" + description + "] has more dimensions than defined in the mapping [" + dims
                            + "]");
                }
                if (!(element instanceof JsonNumber number)) {
                    throw wrappedParsing(element.at(), "Failed to parse object: expecting token of type "
                            + "[VALUE_NUMBER] but found [" + token(element) + "]");
                }
                float component = number.value().floatValue();
                vector[index++] = component;
                squaredMagnitude += component * component;
            }
            if (index != dims) {
                throw wrapped(array.end(), ErrorKind.ILLEGAL_ARGUMENT, "The [dense_vector] field [" + path + "] in doc ["
                        + description + "] has a different number of dimensions [" + index
                        + "] than defined in the mapping [" + dims + "]");
            }
            for (int i = 0; i < dims; i++) {
                if (Float.isNaN(vector[i]) || Float.isInfinite(vector[i])) {
                    String problem = Float.isNaN(vector[i]) ? "NaN values" : "infinite values";
                    throw wrapped(array.end(), ErrorKind.ILLEGAL_ARGUMENT, "element_type [float] vectors do not support "
                            + problem
                            + " but found [" + vector[i] + "] at dim [" + i + "];" + preview(vector));
                }
            }
            if (field.index()) {
                if (field.similarity() == Similarity.DOT_PRODUCT && Math.abs(squaredMagnitude - 1.0f) > 1e-4f) {
                    throw wrapped(array.end(), ErrorKind.ILLEGAL_ARGUMENT, "The [dot_product] similarity can only be "
                            + "used with "
                            + "unit-length vectors." + preview(vector));
                }
                if (field.similarity() == Similarity.COSINE && Math.sqrt(squaredMagnitude) == 0.0f) {
                    throw wrapped(array.end(), ErrorKind.ILLEGAL_ARGUMENT, "The [cosine] similarity does not support "
                            + "vectors with "
                            + "zero magnitude." + preview(vector));
                }
            }
            vectorPaths.add(path);
            values.add(new IndexedValue.Vector(path, vector));
        }

        /** Elasticsearch's " Preview of invalid vector: [a, b, c, d, e, ...]" (at most five components). */
        private static String preview(float[] vector) {
            StringBuilder b = new StringBuilder(" Preview of invalid vector: [");
            for (int i = 0; i < Math.min(5, vector.length); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(vector[i]);
            }
            if (vector.length >= 5) {
                b.append(", ...");
            }
            return b.append(']').toString();
        }

        // ---- failures ---------------------------------------------------------------------------------------

        private GatewayException fieldFailure(String path, FieldMapping field, JsonValue value,
                                              GatewayException cause) {
            return new GatewayException(ErrorKind.DOCUMENT_PARSING, String.format(Locale.ROOT,
                    "%sfailed to parse field [%s] of type [%s] in %s. Preview of field's value: '%s'",
                    Position.prefix(Position.endOf(value)), path, field.type(), description,
                    String.valueOf(javaValue(value))), Map.of(), cause);
        }

        /** Elasticsearch's generic wrapper: "[l:c] failed to parse: <detail>" caused by the detail. */
        private static GatewayException wrapped(long at, ErrorKind causeKind, String detail) {
            return new GatewayException(ErrorKind.DOCUMENT_PARSING, Position.prefix(at) + "failed to parse: " + detail,
                    Map.of(), new GatewayException(causeKind, detail));
        }

        /** As {@link #wrapped}, over a {@code parsing_exception} with the same position as its line and col. */
        private static GatewayException wrappedParsing(long at, String detail) {
            return new GatewayException(ErrorKind.DOCUMENT_PARSING, Position.prefix(at) + "failed to parse: " + detail,
                    Map.of(), GatewayException.parsingAt(detail, at));
        }
    }

    /** One object of the document being walked, with the mapping that applies to it. */
    /** Elasticsearch's {@code index.mapping.depth.limit}: objects nest at most this deep. */
    static final int MAPPING_DEPTH_LIMIT = 20;

    private static final class Level {
        final Run run;
        final Level parent;
        final String name;
        final String path;
        final Dynamic dynamic;
        final SortedMap<String, FieldMapping> mapped;
        AddedObject added;
        /** Objects between the root and this one: the root is 0, its object fields 1. */
        final int depth;

        Level(Run run, Level parent, String name, String path, Dynamic dynamic, SortedMap<String, FieldMapping> mapped,
              AddedObject added) {
            this.run = run;
            this.parent = parent;
            this.depth = parent == null ? 0 : parent.depth + 1;
            this.name = name;
            this.path = path;
            this.dynamic = dynamic;
            this.mapped = mapped;
            this.added = added;
        }

        String childPath(String child) {
            return path.isEmpty() ? child : path + "." + child;
        }

        Target lookup(String child) {
            if (parent == null && METADATA_FIELDS.contains(child)) {
                return new Metadata(child);
            }
            FieldMapping existing = mapped.get(child);
            AddedObject additions = peekAdditions();
            if (existing instanceof ObjectField o) {
                AddedObject extension = additions == null ? null : (AddedObject) additions.children.get(child);
                return new Obj(new Level(run, this, child, childPath(child), o.dynamic().orElse(dynamic),
                        o.properties(), extension));
            }
            if (existing != null) {
                return new Leaf(existing);
            }
            Object fresh = additions == null ? null : additions.children.get(child);
            return switch (fresh) {
                case null -> null;
                case FieldMapping leaf -> new Leaf(leaf);
                case AddedObject object -> new Obj(new Level(run, this, child, childPath(child), dynamic,
                        new TreeMap<>(), object));
                default -> throw new IllegalStateException("unexpected addition " + fresh);
            };
        }

        /**
         * Whether a field the mapping does not know may be parsed here: {@code true} under {@code dynamic: true},
         * {@code false} under {@code dynamic: false}, an error under {@code dynamic: strict} (naming the position
         * {@code at} of the value).
         */
        boolean admitsNewField(String child, long at) {
            return switch (dynamic) {
                case TRUE -> true;
                case FALSE -> false;
                case STRICT -> throw new GatewayException(ErrorKind.STRICT_DYNAMIC_MAPPING, Position.prefix(at)
                        + "mapping set to strict, "
                        + "dynamic introduction of [" + child + "] within [" + (path.isEmpty() ? "_doc" : path)
                        + "] is not allowed");
            };
        }

        void addLeaf(String child, FieldMapping mapping) {
            additions().children.put(child, mapping);
            run.changed = true;
        }

        Level addObject(String child) {
            AddedObject object = new AddedObject();
            additions().children.put(child, object);
            run.changed = true;
            return new Level(run, this, child, childPath(child), dynamic, new TreeMap<>(), object);
        }

        /** The additions below this object if there are any yet (another visit of the object may have made them). */
        private AddedObject peekAdditions() {
            if (added == null && parent != null && parent.peekAdditions() != null
                    && parent.peekAdditions().children.get(name) instanceof AddedObject existing) {
                added = existing;
            }
            return added;
        }

        /** The additions below this object, created on first use (and linked into the parent's). */
        private AddedObject additions() {
            if (added == null) {
                AddedObject parentAdditions = parent.additions();
                added = (AddedObject) parentAdditions.children.computeIfAbsent(name, k -> new AddedObject());
            }
            return added;
        }
    }

    // ---- numbers, as Elasticsearch's JSON parser and number mappers read them --------------------------------

    private static final double MIN_INT = Integer.MIN_VALUE;
    private static final double MAX_INT = Integer.MAX_VALUE;
    private static final double MIN_LONG = Long.MIN_VALUE;
    private static final double MAX_LONG = Long.MAX_VALUE;
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** A {@code long}: a JSON number as Jackson converts it, a string as Elasticsearch's {@code toLong} does. */
    private static long longValue(JsonValue value) {
        return switch (value) {
            case JsonString s -> stringToLong(s.value());
            case JsonNumber n -> switch (n.value()) {
                case Long l -> l;
                case BigInteger big when big.compareTo(LONG_MIN) >= 0 && big.compareTo(LONG_MAX) <= 0 -> big.longValue();
                case Double d when d >= MIN_LONG && d <= MAX_LONG -> (long) d.doubleValue();
                default -> throw xContent("Numeric value (" + Json.write(n) + ") out of range of long ("
                        + Long.MIN_VALUE + " - " + Long.MAX_VALUE + ")");
            };
            default -> throw notNumeric(value);
        };
    }

    private static long stringToLong(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            // try again as a decimal
        }
        BigInteger integer;
        try {
            BigDecimal decimal = new BigDecimal(text);
            if (decimal.scale() < -19) {
                throw GatewayException.illegalArgument("Value [" + text + "] is out of range for a long");
            }
            integer = decimal.scale() > 19 ? BigInteger.ZERO : decimal.toBigInteger();
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("For input string: \"" + text + "\"");
        }
        if (integer.compareTo(LONG_MIN) < 0 || integer.compareTo(LONG_MAX) > 0) {
            throw GatewayException.illegalArgument("Value [" + text + "] is out of range for a long");
        }
        return integer.longValue();
    }

    /** An {@code int}: a JSON number as Jackson converts it, a string through a double as Elasticsearch does. */
    private static int intValue(JsonValue value) {
        return switch (value) {
            case JsonString s -> {
                double d = parseDouble(s.value());
                if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
                    throw GatewayException.illegalArgument("Value [" + s.value() + "] is out of range for an integer");
                }
                yield (int) d;
            }
            case JsonNumber n -> jacksonInt(n);
            default -> throw notNumeric(value);
        };
    }

    private static int jacksonInt(JsonNumber n) {
        boolean inRange = switch (n.value()) {
            case Long l -> l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE;
            case Double d -> d >= MIN_INT && d <= MAX_INT;
            default -> false;
        };
        if (!inRange) {
            throw xContent("Numeric value (" + Json.write(n) + ") out of range of int (" + Integer.MIN_VALUE + " - "
                    + Integer.MAX_VALUE + ")");
        }
        return n.value() instanceof Double d ? (int) d.doubleValue() : n.value().intValue();
    }

    private static short shortValue(JsonValue value) {
        return switch (value) {
            case JsonString s -> {
                double d = parseDouble(s.value());
                if (d < Short.MIN_VALUE || d > Short.MAX_VALUE) {
                    throw GatewayException.illegalArgument("Value [" + s.value() + "] is out of range for a short");
                }
                yield (short) d;
            }
            case JsonNumber n -> {
                int i = jacksonInt(n);
                if (i < Short.MIN_VALUE || i > Short.MAX_VALUE) {
                    throw xContent("Numeric value (" + Json.write(n) + ") out of range of Java short");
                }
                yield (short) i;
            }
            default -> throw notNumeric(value);
        };
    }

    private static byte byteValue(JsonValue value) {
        int i = intValue(value);
        if (i < Byte.MIN_VALUE || i > Byte.MAX_VALUE) {
            throw GatewayException.illegalArgument("Value [" + i + "] is out of range for a byte");
        }
        return (byte) i;
    }

    private static double doubleValue(JsonValue value) {
        double d = switch (value) {
            case JsonString s -> parseDouble(s.value());
            case JsonNumber n -> n.value().doubleValue();
            default -> throw notNumeric(value);
        };
        if (!Double.isFinite(d)) {
            throw GatewayException.illegalArgument("[double] supports only finite values, but got [" + d + "]");
        }
        return d;
    }

    private static float rawFloat(JsonValue value) {
        return switch (value) {
            case JsonString s -> {
                try {
                    yield Float.parseFloat(s.value());
                } catch (NumberFormatException e) {
                    throw GatewayException.javaException("number_format_exception", e.getMessage());
                }
            }
            case JsonNumber n -> n.value().floatValue();
            default -> throw notNumeric(value);
        };
    }

    private static float floatValue(JsonValue value) {
        float f = rawFloat(value);
        if (!Float.isFinite(f)) {
            throw GatewayException.illegalArgument("[float] supports only finite values, but got [" + f + "]");
        }
        return f;
    }

    private static float halfFloatValue(JsonValue value) {
        float f = rawFloat(value);
        float half = Float.float16ToFloat(Float.floatToFloat16(f));
        if (!Float.isFinite(half)) {
            throw GatewayException.illegalArgument("[half_float] supports only finite values, but got [" + f + "]");
        }
        return half;
    }

    /**
     * {@link Double#parseDouble}, whose failures Elasticsearch reports as they are: {@code number_format_exception}
     * "For input string: …".
     */
    private static double parseDouble(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw GatewayException.javaException("number_format_exception", e.getMessage());
        }
    }

    private static GatewayException notNumeric(JsonValue value) {
        return xContent("Current token (" + jacksonToken(value) + ") not numeric, can not use numeric value accessors");
    }

    private static GatewayException xContent(String reason) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, reason);
    }

    /** The JSON parser's token name of a value, as its messages print it. */
    private static String jacksonToken(JsonValue value) {
        return switch (value) {
            case JsonBool b -> b.value() ? "VALUE_TRUE" : "VALUE_FALSE";
            case JsonNumber n -> n.isIntegral() ? "VALUE_NUMBER_INT" : "VALUE_NUMBER_FLOAT";
            default -> value.tokenName();
        };
    }

    /** Elasticsearch's token name of a value (what a parser expecting something else reports finding). */
    private static String token(JsonValue value) {
        return value.tokenName();
    }

    /**
     * A value as Elasticsearch previews it in errors: read into Java objects (a {@link HashMap} for an object, so
     * keys come in hash order; {@code Integer} for small integers; {@code Double} for fractions) and printed with
     * {@code toString}.
     */
    private static Object javaValue(JsonValue value) {
        return switch (value) {
            case JsonObject o -> {
                Map<String, Object> map = new HashMap<>();
                o.members().forEach((k, v) -> map.put(k, javaValue(v)));
                yield map;
            }
            case JsonArray a -> {
                List<Object> list = new ArrayList<>();
                a.elements().forEach(e -> list.add(javaValue(e)));
                yield list;
            }
            case JsonString s -> s.value();
            case JsonNumber n -> switch (n.value()) {
                case Long l when l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE -> Integer.valueOf(l.intValue());
                case BigDecimal d -> Double.valueOf(d.doubleValue());
                default -> n.value();
            };
            case JsonBool b -> b.value();
            case JsonNull ignored -> null;
        };
    }
}
