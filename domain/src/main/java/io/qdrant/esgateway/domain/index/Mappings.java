package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.index.FieldMapping.ObjectField;
import io.qdrant.esgateway.domain.index.FieldMapping.TextField;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The mapping of an index: its root {@code dynamic} setting, its fields (sorted by name, as ES renders them) and
 * the opaque {@code _meta} object. Parsed by {@link MappingParser}; merged by {@link #merge(Mappings)}.
 */
public record Mappings(Optional<Dynamic> dynamic, SortedMap<String, FieldMapping> properties, Optional<JsonObject> meta,
                       RootOptions root) {
    public static final Mappings EMPTY = new Mappings(Optional.empty(), new TreeMap<>(), Optional.empty());

    public Mappings {
        properties = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(properties));
    }

    public Mappings(Optional<Dynamic> dynamic, SortedMap<String, FieldMapping> properties, Optional<JsonObject> meta) {
        this(dynamic, properties, meta, RootOptions.NONE);
    }

    /** These mappings with other fields (the root parameters kept). */
    public Mappings withProperties(SortedMap<String, FieldMapping> newProperties) {
        return new Mappings(dynamic, newProperties, meta, root);
    }

    /** One field definition read as {@code properties} reads it (dynamic templates build fields with it). */
    public static FieldMapping parseField(String name, JsonValue definition) {
        return MappingParser.field(name, definition);
    }

    public static Mappings parse(JsonValue json) {
        return MappingParser.parse(json);
    }

    /** The body of {@code "mappings"} as Elasticsearch renders it ({@code {}} when empty). */
    public JsonObject toJson() {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        dynamic.ifPresent(d -> b.put("dynamic", d.esName()));
        root.render(b);
        meta.ifPresent(m -> b.put("_meta", m));
        if (!properties.isEmpty()) {
            JsonObjectBuilder props = JsonObjectBuilder.object();
            properties.forEach((name, field) -> props.put(name, (JsonValue) field.toJson()));
            b.put("properties", props);
        }
        return b.build();
    }

    /**
     * The mapping after a {@code PUT _mapping} with {@code update}: new fields are added, objects and multi-fields
     * merge recursively, {@code dynamic}, {@code _meta} and {@code ignore_above} may change; a field never changes
     * its type or any other parameter ({@code illegal_argument_exception}, as in Elasticsearch).
     */
    public Mappings merge(Mappings update) {
        return new Mappings(update.dynamic.or(() -> dynamic), mergeProperties("", properties, update.properties),
                update.meta.or(() -> meta), root.merge(update.root));
    }

    private static SortedMap<String, FieldMapping> mergeProperties(String prefix, SortedMap<String, FieldMapping> current,
                                                                   SortedMap<String, FieldMapping> update) {
        SortedMap<String, FieldMapping> merged = new TreeMap<>(current);
        update.forEach((name, incoming) -> {
            FieldMapping existing = merged.get(name);
            merged.put(name, existing == null ? incoming : mergeField(prefix + name, existing, incoming));
        });
        return merged;
    }

    private static FieldMapping mergeField(String path, FieldMapping existing, FieldMapping incoming) {
        if (existing instanceof ObjectField a && incoming instanceof ObjectField b) {
            return new ObjectField(b.dynamic().or(a::dynamic), mergeProperties(path + ".", a.properties(), b.properties()));
        }
        if (existing instanceof ObjectField || incoming instanceof ObjectField) {
            throw GatewayException.illegalArgument("can't merge a non object mapping [" + path
                    + "] with an object mapping");
        }
        if (!existing.type().equals(incoming.type())) {
            throw GatewayException.illegalArgument("mapper [" + path + "] cannot be changed from type ["
                    + existing.type() + "] to [" + incoming.type() + "]");
        }
        return switch (existing) {
            case TextField a -> {
                TextField b = (TextField) incoming;
                requireSame(path, "analyzer", a.analyzer().orElse("default"), b.analyzer().orElse("default"));
                requireSame(path, "similarity", a.similarity(), b.similarity());
                requireSame(path, "position_increment_gap", a.text().positionIncrementGap(),
                        b.text().positionIncrementGap());
                requireSame(path, "index_prefixes", a.text().indexPrefixes().map(Mappings::showPrefixes),
                        b.text().indexPrefixes().map(Mappings::showPrefixes));
                requireSame(path, "index_phrases", a.text().indexPhrases(), b.text().indexPhrases());
                requireSame(path, "index_options", a.text().indexOptions().orElse("positions"),
                        b.text().indexOptions().orElse("positions"));
                // search analyzers may change, as in Elasticsearch
                yield new TextField(a.analyzer(), mergeProperties(path + ".", a.fields(), b.fields()),
                        b.searchAnalyzer(), b.searchQuoteAnalyzer(), mergeOptions(path, a.options(), b.options()),
                        a.similarity(), a.text());
            }
            case KeywordField a -> {
                KeywordField b = (KeywordField) incoming;
                requireSame(path, "normalizer", a.normalizer().map(n -> n.name()).orElse("null"),
                        b.normalizer().map(n -> n.name()).orElse("null"));
                requireSame(path, "similarity", a.similarity(), b.similarity());
                yield new KeywordField(b.ignoreAbove(), mergeProperties(path + ".", a.fields(), b.fields()),
                        mergeOptions(path, a.options(), b.options()), a.normalizer(), a.similarity());
            }
            case FieldMapping.DateField a -> {
                requireSame(path, "format", a.format().orElse(FieldMapping.DateField.DEFAULT_FORMAT),
                        ((FieldMapping.DateField) incoming).format().orElse(FieldMapping.DateField.DEFAULT_FORMAT));
                yield new FieldMapping.DateField(a.format(), mergeOptions(path, a.options(), incoming.options()));
            }
            case FieldMapping.DenseVectorField a -> {
                FieldMapping.DenseVectorField b = (FieldMapping.DenseVectorField) incoming;
                if (a.dims() != b.dims() && a.hasDims() && b.hasDims()) {
                    requireSame(path, "dims", a.dims(), b.dims());
                }
                requireSame(path, "similarity", a.similarity().esName(), b.similarity().esName());
                requireSame(path, "index", a.index(), b.index());
                requireSame(path, "index_options", a.indexOptions(), b.indexOptions());
                yield a.hasDims() ? a : b;
            }
            case FieldMapping.NumberField a -> new FieldMapping.NumberField(a.numberType(),
                    mergeOptions(path, a.options(), incoming.options()));
            case FieldMapping.BooleanField a -> new FieldMapping.BooleanField(
                    mergeOptions(path, a.options(), incoming.options()));
            case ObjectField a -> throw new IllegalStateException("handled above");
        };
    }

    /** {@code index}, {@code doc_values}, {@code store} and {@code null_value} are fixed; the others may change. */
    private static FieldOptions mergeOptions(String path, FieldOptions current, FieldOptions incoming) {
        if (current.isDefault() && incoming.isDefault()) {
            return FieldOptions.DEFAULT;
        }
        requireSame(path, "index", current.index(), incoming.index());
        requireSame(path, "doc_values", current.docValues(), incoming.docValues());
        requireSame(path, "store", current.store(), incoming.store());
        requireSame(path, "null_value", current.nullValue().map(io.qdrant.esgateway.domain.json.Json::write),
                incoming.nullValue().map(io.qdrant.esgateway.domain.json.Json::write));
        return new FieldOptions(current.index(), current.docValues(), current.store(), current.nullValue(),
                incoming.copyTo(), incoming.coerce(), incoming.ignoreMalformed());
    }

    private static String showPrefixes(TextOptions.IndexPrefixes p) {
        return "{ min_chars=" + p.minChars() + ", max_chars=" + p.maxChars() + " }";
    }

    private static void requireSame(String path, String parameter, Object current, Object incoming) {
        if (!Objects.equals(current, incoming)) {
            throw GatewayException.illegalArgument("Mapper for [" + path + "] conflicts with existing mapper:\n\t"
                    + "Cannot update parameter [" + parameter + "] from [" + show(current) + "] to [" + show(incoming) + "]");
        }
    }

    private static String show(Object value) {
        return value instanceof Optional<?> o ? o.map(String::valueOf).orElse("null") : String.valueOf(value);
    }

    /**
     * The source paths that hold these fields' values: an object path as it is; a multi-field ({@code title.keyword})
     * is read from its parent's value ({@code title}); an unmapped path as it is; {@link #IGNORED} from the whole
     * source ({@code *}: any field may have left a value out); {@link #ROUTING} from none (it is kept beside it).
     */
    public java.util.Set<String> sourcePaths(java.util.Collection<String> fields) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (String field : fields) {
            if (field.equals(IGNORED)) {
                out.add("*");
                continue;
            }
            if (field.equals(ROUTING)) {
                continue;
            }
            StringBuilder path = new StringBuilder();
            SortedMap<String, FieldMapping> level = properties;
            for (String part : field.split("\\.")) {
                FieldMapping m = level == null ? null : level.get(part);
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(part);
                if (!(m instanceof ObjectField o)) {
                    break;
                }
                level = o.properties();
            }
            out.add(path.toString());
        }
        if (!out.isEmpty()) {
            // a field filled by copy_to is read from the fields that copy into it
            Map<String, java.util.List<String>> copiedFrom = new java.util.HashMap<>();
            copySources("", properties, copiedFrom);
            for (String field : fields) {
                copiedFrom.getOrDefault(field, java.util.List.of()).forEach(out::add);
            }
        }
        return out;
    }

    private static void copySources(String prefix, Map<String, FieldMapping> level,
                                    Map<String, java.util.List<String>> out) {
        level.forEach((name, f) -> {
            for (String target : f.options().copyTo()) {
                out.computeIfAbsent(target, k -> new java.util.ArrayList<>()).add(prefix + name);
            }
            if (f instanceof ObjectField o) {
                copySources(prefix + name + ".", o.properties(), out);
            }
        });
    }

    /**
     * Elasticsearch's {@code _ignored} metadata field: the names of the fields a document has a value of that
     * {@code ignore_above} or {@code ignore_malformed} left out, indexed as keywords ({@link #field} answers a
     * keyword mapping for it).
     */
    public static final String IGNORED = "_ignored";
    /**
     * Elasticsearch's {@code _routing} metadata field: the routing value a document was written with, indexed as a
     * keyword without doc values ({@link #field} answers such a mapping for it: queries run on it; sorts,
     * aggregations and {@code docvalue_fields} are refused as Elasticsearch refuses them).
     */
    public static final String ROUTING = "_routing";
    private static final FieldMapping IGNORED_KEYWORD = new KeywordField(Optional.empty(), new TreeMap<>());
    private static final FieldMapping ROUTING_KEYWORD = new KeywordField(Optional.empty(), new TreeMap<>(),
            new FieldOptions(true, false, false, Optional.empty(), java.util.List.of(), Optional.empty(),
                    Optional.empty()), Optional.empty());

    /**
     * The field at a dotted path ({@code a.b}, or {@code title.keyword} for a multi-field), if mapped; the indexed
     * metadata fields {@link #IGNORED} and {@link #ROUTING} as keywords.
     */
    public Optional<FieldMapping> field(String path) {
        if (path.startsWith("_")) {
            if (path.equals(IGNORED)) {
                return Optional.of(IGNORED_KEYWORD);
            }
            if (path.equals(ROUTING)) {
                return Optional.of(ROUTING_KEYWORD);
            }
        }
        SortedMap<String, FieldMapping> level = properties;
        String[] parts = path.split("\\.");
        FieldMapping found = null;
        for (String part : parts) {
            if (level == null) {
                return Optional.empty();
            }
            found = level.get(part);
            if (found == null) {
                return Optional.empty();
            }
            level = switch (found) {
                case ObjectField o -> o.properties();
                case TextField t -> t.fields();
                case KeywordField k -> k.fields();
                default -> null;
            };
        }
        return Optional.ofNullable(found);
    }
}
