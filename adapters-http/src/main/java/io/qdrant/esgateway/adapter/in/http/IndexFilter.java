package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The {@code index_filter} of {@code _field_caps}, decided per index as Elasticsearch's can-match phase decides it
 * without reading documents: {@code match_none}; {@code term}, {@code terms}, {@code prefix} and {@code wildcard} on
 * {@code _index}; {@code term}, {@code terms}, {@code exists} and {@code range} on a field the index does not map;
 * {@code bool} over those. Any other clause may match, so the index stays (Elasticsearch also drops an index whose
 * values all fall outside a {@code range}: the gateway keeps it).
 */
final class IndexFilter {
    private IndexFilter() {
    }

    /** False only when the query can match no document of {@code index}. */
    static boolean mayMatch(JsonValue query, IndexMetadata index) {
        if (!(query instanceof JsonObject o) || o.members().size() != 1) {
            return true;
        }
        Map.Entry<String, JsonValue> clause = o.members().entrySet().iterator().next();
        JsonValue body = clause.getValue();
        return switch (clause.getKey()) {
            case "match_none" -> false;
            case "bool" -> bool(body, index);
            case "term", "terms", "prefix", "wildcard" -> onField(clause.getKey(), body, index);
            case "range" -> field(body).map(f -> f.equals("_index") || mapped(index, f)).orElse(true);
            case "exists" -> body instanceof JsonObject e
                    ? JsonReads.text(e.members().getOrDefault("field", JsonValue.JsonNull.INSTANCE))
                            .map(f -> f.startsWith("_") || f.contains("*") || mapped(index, f))
                            .orElse(true)
                    : true;
            default -> true;
        };
    }

    private static boolean bool(JsonValue body, IndexMetadata index) {
        if (!(body instanceof JsonObject b)) {
            return true;
        }
        for (String occur : List.of("must", "filter")) {
            for (JsonValue q : clauses(b.members().get(occur))) {
                if (!mayMatch(q, index)) {
                    return false;
                }
            }
        }
        for (JsonValue q : clauses(b.members().get("must_not"))) {
            if (q instanceof JsonObject o && o.members().containsKey("match_all")) {
                return false;
            }
            if (q instanceof JsonObject o && o.members().size() == 1 && isIndexClause(o) && onField(
                    o.members().keySet().iterator().next(), o.members().values().iterator().next(), index)) {
                return false;
            }
        }
        List<JsonValue> should = clauses(b.members().get("should"));
        boolean scoring = b.members().containsKey("must") || b.members().containsKey("filter");
        if (!should.isEmpty() && !scoring && !b.members().containsKey("minimum_should_match")) {
            return should.stream().anyMatch(q -> mayMatch(q, index));
        }
        return true;
    }

    private static boolean isIndexClause(JsonObject o) {
        String kind = o.members().keySet().iterator().next();
        return List.of("term", "terms", "prefix", "wildcard").contains(kind)
                && field(o.members().get(kind)).map(f -> f.equals("_index")).orElse(false);
    }

    private static List<JsonValue> clauses(JsonValue v) {
        if (v == null) {
            return List.of();
        }
        return v instanceof JsonValue.JsonArray a ? a.elements() : List.of(v);
    }

    private static boolean onField(String kind, JsonValue body, IndexMetadata index) {
        java.util.Optional<String> field = field(body);
        if (field.isEmpty()) {
            return true;
        }
        if (!field.get().equals("_index")) {
            return field.get().startsWith("_") || !(kind.equals("term") || kind.equals("terms"))
                    || mapped(index, field.get());
        }
        JsonValue value = ((JsonObject) body).members().get("_index");
        if (value instanceof JsonObject inner) {
            value = inner.members().getOrDefault("value", inner.members().get(kind));
        }
        List<String> values = clauses(value).stream().map(v -> JsonReads.text(v).orElse(null)).toList();
        if (values.contains(null)) {
            return true;
        }
        String name = index.name();
        return switch (kind) {
            case "prefix" -> values.stream().anyMatch(name::startsWith);
            case "wildcard" -> values.stream().anyMatch(p -> IndexName.matches(p, name));
            default -> values.contains(name);
        };
    }

    /** The one field a leaf query names ({@code {"field": …}} but for {@code boost} and {@code _name}). */
    private static java.util.Optional<String> field(JsonValue body) {
        if (!(body instanceof JsonObject o)) {
            return java.util.Optional.empty();
        }
        List<String> names = o.members().keySet().stream()
                .filter(k -> !k.equals("boost") && !k.equals("_name")).toList();
        return names.size() == 1 ? java.util.Optional.of(names.getFirst()) : java.util.Optional.empty();
    }

    /** Whether {@code path} is a field (leaf, multi-field or object) of the index's mapping. */
    static boolean mapped(IndexMetadata index, String path) {
        Map<String, FieldMapping> level = index.mappings().properties();
        String[] parts = path.split("\\.");
        FieldMapping current = null;
        for (String part : parts) {
            if (level == null) {
                return false;
            }
            current = level.get(part);
            if (current == null) {
                return false;
            }
            level = switch (current) {
                case FieldMapping.ObjectField o -> o.properties();
                case FieldMapping.TextField t -> t.fields();
                case FieldMapping.KeywordField k -> k.fields();
                default -> null;
            };
        }
        return current != null;
    }
}
