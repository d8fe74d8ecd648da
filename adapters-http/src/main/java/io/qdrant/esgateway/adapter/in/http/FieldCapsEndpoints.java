package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code GET|POST /_field_caps} and {@code /{index}/_field_caps}: for each field a pattern of {@code fields} names, its
 * type in each index with whether it is searchable and aggregatable, merged as Elasticsearch 8.15 merges them
 * ({@code indices} listed per type when a field has several, {@code non_searchable_indices} and
 * {@code non_aggregatable_indices} when indices disagree), with {@code include_unmapped}, {@code filters},
 * {@code types} and the index-level part of {@code index_filter} ({@link IndexFilter}).
 *
 * <pre>
 * curl 'localhost:9200/books/_field_caps?fields=title,price*'
 * </pre>
 */
final class FieldCapsEndpoints {
    private static final String PARAMS = Routes.INDEX_OPTIONS + ",fields,include_unmapped,filters,types,"
            + "include_empty_fields";

    /** The metadata fields of every Elasticsearch 8.15 index: type, searchable, aggregatable. */
    private record Meta(String name, String type, boolean searchable, boolean aggregatable) {
    }

    private static final List<Meta> METADATA = List.of(
            new Meta("_data_stream_timestamp", "_data_stream_timestamp", false, false),
            new Meta("_doc_count", "integer", false, false),
            new Meta("_field_names", "_field_names", true, false),
            new Meta("_id", "_id", true, false),
            new Meta("_ignored", "_ignored", true, true),
            new Meta("_ignored_source", "_ignored_source", false, false),
            new Meta("_index", "_index", true, true),
            new Meta("_nested_path", "_nested_path", true, false),
            new Meta("_routing", "_routing", true, false),
            new Meta("_seq_no", "_seq_no", true, true),
            new Meta("_source", "_source", false, false),
            new Meta("_version", "_version", false, true));

    /** One field in one index. */
    private record Capability(String type, boolean metadata, boolean searchable, boolean aggregatable,
                              Kind kind) {
    }

    private enum Kind { LEAF, MULTI_FIELD, OBJECT, METADATA }

    private final IndexAdministration admin;

    FieldCapsEndpoints(IndexAdministration admin) {
        this.admin = admin;
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_field_caps", "field_caps", PARAMS, true, this::fieldCaps))
                .add(route("GET,POST", "/{index}/_field_caps", "field_caps", PARAMS, true, this::fieldCaps));
    }

    private EsResponse fieldCaps(EsRequest request) {
        List<String> patterns = new ArrayList<>();
        request.param("fields").ifPresent(f -> patterns.addAll(split(f)));
        Optional<JsonValue> indexFilter = Optional.empty();
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "field_caps body");
            for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
                switch (e.getKey()) {
                    case "fields" -> patterns.addAll(fieldList(e.getValue()));
                    case "index_filter" -> {
                        QueryDsl.parse(e.getValue());
                        indexFilter = Optional.of(e.getValue());
                    }
                    case "runtime_mappings" -> throw GatewayException.unsupported("[runtime_mappings] in _field_caps");
                    default -> throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.X_CONTENT_PARSE,
                            "[field_caps_request] unknown field [" + e.getKey() + "]");
                }
            }
        }
        if (patterns.isEmpty()) {
            throw GatewayException.validationFailed(List.of("no fields specified"));
        }
        if (!request.flag("include_empty_fields", true)) {
            throw GatewayException.unsupported("[include_empty_fields=false] in _field_caps");
        }
        boolean includeUnmapped = request.flag("include_unmapped", false);
        Set<String> filters = Set.copyOf(request.param("filters").map(FieldCapsEndpoints::split).orElse(List.of()));
        for (String f : filters) {
            if (!Set.of("+metadata", "-metadata", "-nested", "-multifield", "-parent").contains(f)) {
                throw GatewayException.illegalArgument("Unknown field caps filter [" + f + "]");
            }
        }
        Optional<JsonValue> filter = indexFilter;
        Optional<Set<String>> types = request.param("types").map(t -> Set.copyOf(split(t)));
        List<IndexMetadata> indices = admin.describe(request.optionalPathParam("index").orElse("_all"),
                        Routes.indexOptions(request, true)).stream()
                .map(IndexAdministration.IndexDescription::index)
                .filter(i -> filter.map(q -> IndexFilter.mayMatch(q, i)).orElse(true))
                .sorted(java.util.Comparator.comparing(IndexMetadata::name))
                .toList();
        // field → index → its capability there
        Map<String, Map<String, Capability>> byField = new TreeMap<>();
        for (IndexMetadata index : indices) {
            Map<String, Capability> fields = new LinkedHashMap<>();
            for (Meta m : METADATA) {
                fields.put(m.name(), new Capability(m.type(), true, m.searchable(), m.aggregatable(), Kind.METADATA));
            }
            collect(index.mappings().properties(), "", false, fields);
            Map<String, Capability> matched = new LinkedHashMap<>();
            fields.forEach((name, cap) -> {
                if (patterns.stream().anyMatch(p -> IndexName.matches(p, name)) && kept(cap, filters, types)) {
                    matched.put(name, cap);
                }
            });
            if (!filters.contains("-parent")) {
                // the objects above each field listed are listed too, as Elasticsearch does
                for (String name : List.copyOf(matched.keySet())) {
                    for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
                        Capability parent = fields.get(name.substring(0, dot));
                        if (parent != null && parent.kind() == Kind.OBJECT) {
                            matched.putIfAbsent(name.substring(0, dot), parent);
                        }
                    }
                }
            }
            matched.forEach((name, cap) ->
                    byField.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(index.name(), cap));
        }
        JsonObjectBuilder fieldsOut = JsonObjectBuilder.object();
        byField.forEach((name, perIndex) -> {
            // type → the indices that have the field with that type
            Map<String, List<String>> byType = new TreeMap<>();
            perIndex.forEach((index, cap) -> byType.computeIfAbsent(cap.type(), t -> new ArrayList<>()).add(index));
            if (includeUnmapped) {
                for (IndexMetadata index : indices) {
                    if (!perIndex.containsKey(index.name())) {
                        byType.computeIfAbsent("unmapped", t -> new ArrayList<>()).add(index.name());
                    }
                }
            }
            JsonObjectBuilder types1 = JsonObjectBuilder.object();
            byType.forEach((type, names) -> {
                List<Capability> caps = names.stream().map(perIndex::get).toList();
                boolean unmapped = type.equals("unmapped");
                List<String> nonSearchable = new ArrayList<>();
                List<String> nonAggregatable = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    Capability c = caps.get(i);
                    if (!unmapped && !c.searchable()) {
                        nonSearchable.add(names.get(i));
                    }
                    if (!unmapped && !c.aggregatable()) {
                        nonAggregatable.add(names.get(i));
                    }
                }
                boolean searchable = !unmapped && nonSearchable.isEmpty();
                boolean aggregatable = !unmapped && nonAggregatable.isEmpty();
                JsonObjectBuilder entry = JsonObjectBuilder.object().put("type", type)
                        .put("metadata_field", !unmapped && caps.getFirst().metadata())
                        .put("searchable", searchable)
                        .put("aggregatable", aggregatable);
                if (byType.size() > 1) {
                    entry.put("indices", strings(names));
                }
                if (!nonSearchable.isEmpty() && nonSearchable.size() < names.size()) {
                    entry.put("non_searchable_indices", strings(nonSearchable));
                }
                if (!nonAggregatable.isEmpty() && nonAggregatable.size() < names.size()) {
                    entry.put("non_aggregatable_indices", strings(nonAggregatable));
                }
                types1.put(type, entry);
            });
            fieldsOut.put(name, types1);
        });
        return EsResponse.ok(JsonObjectBuilder.object()
                .put("indices", strings(indices.stream().map(IndexMetadata::name).toList()))
                .put("fields", fieldsOut)
                .build());
    }

    private static boolean kept(Capability cap, Set<String> filters, Optional<Set<String>> types) {
        if (filters.contains("+metadata") && !cap.metadata() || filters.contains("-metadata") && cap.metadata()
                || filters.contains("-multifield") && cap.kind() == Kind.MULTI_FIELD
                || filters.contains("-parent") && cap.kind() == Kind.OBJECT) {
            return false;
        }
        return types.map(t -> t.contains(cap.type())).orElse(true);
    }

    /** Every field of a mapping by its full path: leaves, multi-fields and objects. */
    private static void collect(Map<String, FieldMapping> fields, String prefix, boolean multi,
                                Map<String, Capability> out) {
        fields.forEach((name, field) -> {
            String path = prefix + name;
            Kind kind = multi ? Kind.MULTI_FIELD : Kind.LEAF;
            switch (field) {
                case FieldMapping.ObjectField o -> {
                    out.put(path, new Capability("object", false, false, false, Kind.OBJECT));
                    collect(o.properties(), path + ".", false, out);
                }
                case FieldMapping.TextField t -> {
                    out.put(path, new Capability("text", false, t.options().index(), false, kind));
                    collect(t.fields(), path + ".", true, out);
                }
                case FieldMapping.KeywordField k -> {
                    out.put(path, docValued(field, kind));
                    collect(k.fields(), path + ".", true, out);
                }
                case FieldMapping.DenseVectorField v ->
                        out.put(path, new Capability("dense_vector", false, v.index(), false, kind));
                case FieldMapping.NumberField n -> out.put(path, docValued(field, kind));
                case FieldMapping.BooleanField b -> out.put(path, docValued(field, kind));
                case FieldMapping.DateField d -> out.put(path, docValued(field, kind));
            }
        });
    }

    /** A field searchable through its index or its doc values, aggregatable through its doc values. */
    private static Capability docValued(FieldMapping field, Kind kind) {
        boolean docValues = field.options().docValues();
        return new Capability(field.type(), false, field.options().index() || docValues, docValues, kind);
    }

    private static JsonValue strings(List<String> values) {
        return new JsonValue.JsonArray(values.stream().map(v -> (JsonValue) JsonValue.string(v)).toList());
    }

    private static List<String> split(String list) {
        return java.util.Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static List<String> fieldList(JsonValue value) {
        return switch (value) {
            case JsonValue.JsonString s -> split(s.value());
            case JsonValue.JsonArray a -> a.elements().stream()
                    .map(e -> JsonReads.text(e).orElseThrow(() -> GatewayException.parse(
                            "[field_caps_request] fields must be strings")))
                    .toList();
            default -> throw GatewayException.parse("[field_caps_request] fields must be a string or an array");
        };
    }
}
