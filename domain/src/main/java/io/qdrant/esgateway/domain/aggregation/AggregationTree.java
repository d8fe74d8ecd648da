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
 * The aggregations of a (validated) search body as a tree of names, types, options, {@code meta} and
 * sub-aggregations, read once per request, and the walk over the rendered {@code aggregations} answer that the
 * post-reduction steps ({@link BucketPipelines}, {@link AggregationMeta}) share.
 *
 * <p>Where a sub-aggregation's answer sits depends on its parent's shape: directly in a single-bucket answer
 * ({@code filter}, {@code missing}, {@code global}), in each bucket of a multi-bucket answer ({@code buckets} as an
 * array or keyed object).
 */
public final class AggregationTree {
    /** Aggregation types whose answer holds its sub-aggregations in {@code buckets}. */
    static final Set<String> MULTI_BUCKET = Set.of("terms", "range", "date_range", "histogram",
            "date_histogram", "composite", "filters");

    /**
     * One aggregation of the request: its type (the member that is neither {@code aggs} nor {@code meta}), its whole
     * body, its {@code meta} and its sub-aggregations by name.
     */
    public record Node(String type, JsonObject body, Optional<JsonObject> meta, Map<String, Node> subs) {
        boolean multiBucket() {
            return MULTI_BUCKET.contains(type);
        }
    }

    /** What one post-reduction step does to the rendered answer, node by node. */
    interface Visitor {
        /** Whether the step changes the answer of {@code node} or of an aggregation below it. */
        boolean touches(Node node);

        /** Puts the members that lead the answer of {@code node} (before its rendered members). */
        default void head(Node node, JsonObjectBuilder out) {
        }

        /**
         * A bucket of the multi-bucket aggregation {@code node}, after its sub-aggregations were visited; empty
         * drops the bucket.
         */
        default Optional<JsonObject> bucket(JsonObject bucket, Node node, boolean typed) {
            return Optional.of(bucket);
        }
    }

    private static final AggregationTree NONE = new AggregationTree(Map.of());

    private final Map<String, Node> roots;

    private AggregationTree(Map<String, Node> roots) {
        this.roots = roots;
    }

    /**
     * The aggregations of a search body that
     * {@link io.qdrant.esgateway.domain.aggregation.parse.AggregationParser} accepted.
     */
    public static AggregationTree of(Optional<JsonValue> body) {
        if (body.isEmpty() || !(body.get() instanceof JsonObject o)) {
            return NONE;
        }
        JsonValue aggs = o.members().containsKey("aggs") ? o.members().get("aggs") : o.members().get("aggregations");
        Map<String, Node> roots = nodes(aggs);
        return roots.isEmpty() ? NONE : new AggregationTree(roots);
    }

    /** The top-level aggregations by name. */
    Map<String, Node> roots() {
        return roots;
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
            out.put(e.getKey(), new Node(type, body, meta, subs));
        }
        return out;
    }

    /** Whether {@code visitor} changes any answer of {@code nodes}. */
    static boolean touchesAny(Map<String, Node> nodes, Visitor visitor) {
        return nodes.values().stream().anyMatch(visitor::touches);
    }

    /**
     * The answers in {@code container} (keyed by aggregation name, or {@code <type>#<name>} when {@code typed}) with
     * {@code visitor} applied to those of {@code nodes}.
     */
    static JsonObject walk(JsonObject container, Map<String, Node> nodes, boolean typed, Visitor visitor) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        for (Map.Entry<String, JsonValue> e : container.members().entrySet()) {
            Node node = nodes.get(subName(e.getKey(), typed));
            if (node != null && visitor.touches(node) && e.getValue() instanceof JsonObject answer) {
                out.put(e.getKey(), answer(answer, node, typed, visitor));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out.build();
    }

    private static JsonObject answer(JsonObject answer, Node node, boolean typed, Visitor visitor) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        visitor.head(node, out);
        boolean multi = node.multiBucket();
        for (Map.Entry<String, JsonValue> e : answer.members().entrySet()) {
            JsonValue v = e.getValue();
            if (multi && e.getKey().equals("buckets")) {
                out.put(e.getKey(), buckets(v, node, typed, visitor));
            } else if (!multi && v instanceof JsonObject sub && node.subs().containsKey(subName(e.getKey(), typed))) {
                out.put(e.getKey(), walk(JsonObjectBuilder.object().put(e.getKey(), sub).build(), node.subs(), typed,
                        visitor).members().get(e.getKey()));
            } else {
                out.put(e.getKey(), v);
            }
        }
        return out.build();
    }

    private static JsonValue buckets(JsonValue buckets, Node node, boolean typed, Visitor visitor) {
        if (buckets instanceof JsonArray a) {
            List<JsonValue> out = new ArrayList<>(a.elements().size());
            for (JsonValue b : a.elements()) {
                bucket(b, node, typed, visitor).ifPresent(out::add);
            }
            return new JsonArray(out);
        }
        if (buckets instanceof JsonObject keyed) {
            JsonObjectBuilder out = JsonObjectBuilder.object();
            keyed.members().forEach((key, b) -> bucket(b, node, typed, visitor).ifPresent(x -> out.put(key, x)));
            return out.build();
        }
        return buckets;
    }

    private static Optional<? extends JsonValue> bucket(JsonValue value, Node node, boolean typed, Visitor visitor) {
        if (!(value instanceof JsonObject bucket)) {
            return Optional.of(value);
        }
        JsonObject walked = touchesAny(node.subs(), visitor) ? walk(bucket, node.subs(), typed, visitor) : bucket;
        return visitor.bucket(walked, node, typed);
    }

    /** The aggregation name of an answer's key: after the type under {@code typed_keys}. */
    static String subName(String key, boolean typed) {
        int hash = typed ? key.indexOf('#') : -1;
        return hash >= 0 ? key.substring(hash + 1) : key;
    }
}
