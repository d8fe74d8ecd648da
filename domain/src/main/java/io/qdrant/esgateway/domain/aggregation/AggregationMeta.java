package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code meta} objects of a request's aggregations, echoed in the response as Elasticsearch does: first under the
 * aggregation's name, for top-level aggregations and for sub-aggregations inside every bucket.
 *
 * <p>{@code meta} is opaque to the computation, so it is kept out of the {@link Aggregation} specs: it is read from
 * the (already validated) request body and applied to the rendered answer. Where a sub-aggregation's answer sits
 * depends on its parent's shape: directly in a single-bucket answer ({@code filter}, {@code missing},
 * {@code global}), in each bucket of a multi-bucket answer ({@code buckets} as an array or keyed object).
 */
public final class AggregationMeta {
    /** Aggregation types whose answer holds its sub-aggregations in {@code buckets}. */
    private static final Set<String> MULTI_BUCKET = Set.of("terms", "range", "date_range", "histogram",
            "date_histogram", "composite", "filters");

    private record Node(String type, Optional<JsonObject> meta, Map<String, Node> subs) {
        boolean hasMeta() {
            return meta.isPresent() || subs.values().stream().anyMatch(Node::hasMeta);
        }
    }

    private static final AggregationMeta NONE = new AggregationMeta(Map.of());

    private final Map<String, Node> roots;

    private AggregationMeta(Map<String, Node> roots) {
        this.roots = roots;
    }

    /**
     * The {@code meta} objects of the aggregations of a search body that
     * {@link io.qdrant.esgateway.domain.aggregation.parse.AggregationParser} accepted.
     */
    public static AggregationMeta of(Optional<JsonValue> body) {
        if (body.isEmpty() || !(body.get() instanceof JsonObject o)) {
            return NONE;
        }
        JsonValue aggs = o.members().containsKey("aggs") ? o.members().get("aggs") : o.members().get("aggregations");
        Map<String, Node> roots = nodes(aggs);
        return roots.values().stream().anyMatch(Node::hasMeta) ? new AggregationMeta(roots) : NONE;
    }

    /** Whether no aggregation of the request has a {@code meta}. */
    public boolean isEmpty() {
        return roots.isEmpty();
    }

    /** The rendered {@code aggregations} object with every {@code meta} echoed. */
    public JsonObject apply(JsonObject rendered) {
        return apply(rendered, false);
    }

    /**
     * The rendered {@code aggregations} object with every {@code meta} echoed; {@code typedKeys}: the answers are
     * named {@code <type>#<name>} ({@code typed_keys=true}).
     */
    public JsonObject apply(JsonObject rendered, boolean typedKeys) {
        return isEmpty() ? rendered : withMeta(rendered, roots, typedKeys);
    }

    private static Map<String, Node> nodes(JsonValue aggs) {
        Map<String, Node> out = new LinkedHashMap<>();
        if (!(aggs instanceof JsonObject o)) {
            return out;
        }
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            if (!(e.getValue() instanceof JsonObject body)) {
                continue;
            }
            String type = "";
            Optional<JsonObject> meta = Optional.empty();
            Map<String, Node> subs = Map.of();
            for (Map.Entry<String, JsonValue> m : body.members().entrySet()) {
                switch (m.getKey()) {
                    case "aggs", "aggregations" -> subs = nodes(m.getValue());
                    case "meta" -> meta = m.getValue() instanceof JsonObject mo ? Optional.of(mo) : Optional.empty();
                    default -> type = m.getKey();
                }
            }
            out.put(e.getKey(), new Node(type, meta, subs));
        }
        return out;
    }

    /** The answers in {@code container} (keyed by aggregation name) with the nodes' meta applied. */
    private static JsonObject withMeta(JsonObject container, Map<String, Node> nodes, boolean typed) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (Map.Entry<String, JsonValue> e : container.members().entrySet()) {
            String key = e.getKey();
            Node node = nodes.get(subName(key, typed));
            if (node != null && node.hasMeta() && e.getValue() instanceof JsonObject answer) {
                out.put(e.getKey(), answer(answer, node, typed));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out.build();
    }

    private static JsonObject answer(JsonObject answer, Node node, boolean typed) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        node.meta().ifPresent(m -> out.put("meta", m));
        boolean multi = MULTI_BUCKET.contains(node.type());
        for (Map.Entry<String, JsonValue> e : answer.members().entrySet()) {
            JsonValue v = e.getValue();
            if (node.subs().isEmpty()) {
                out.put(e.getKey(), v);
            } else if (multi && e.getKey().equals("buckets")) {
                out.put(e.getKey(), buckets(v, node.subs(), typed));
            } else if (!multi && node.subs().containsKey(subName(e.getKey(), typed)) && v instanceof JsonObject sub) {
                out.put(e.getKey(), withMeta(JsonObjectBuilder.object().put(e.getKey(), sub).build(), node.subs(),
                        typed).members().get(e.getKey()));
            } else {
                out.put(e.getKey(), v);
            }
        }
        return out.build();
    }

    /** The aggregation name of an answer's key: after the type under {@code typed_keys}. */
    private static String subName(String key, boolean typed) {
        int hash = typed ? key.indexOf('#') : -1;
        return hash >= 0 ? key.substring(hash + 1) : key;
    }

    private static JsonValue buckets(JsonValue buckets, Map<String, Node> subs, boolean typed) {
        return switch (buckets) {
            case JsonArray a -> {
                List<JsonValue> out = new ArrayList<>(a.elements().size());
                for (JsonValue b : a.elements()) {
                    out.add(b instanceof JsonObject bucket ? withMeta(bucket, subs, typed) : b);
                }
                yield new JsonArray(out);
            }
            case JsonObject keyed -> {
                JsonObjectBuilder out = JsonObjectBuilder.object();
                keyed.members().forEach((key, b) -> out.put(key, b instanceof JsonObject bucket
                        ? withMeta(bucket, subs, typed) : b));
                yield out.build();
            }
            default -> buckets;
        };
    }
}
