package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.AggregationTree.Node;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code meta} objects of a request's aggregations, echoed in the response as Elasticsearch does: first under the
 * aggregation's name, for top-level aggregations and for sub-aggregations inside every bucket.
 *
 * <p>{@code meta} is opaque to the computation, so it is kept out of the {@link Aggregation} specs: it is read from
 * the (already validated) request body's {@link AggregationTree} and applied to the rendered answer.
 */
public final class AggregationMeta implements AggregationTree.Visitor {
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
        return of(AggregationTree.of(body));
    }

    /** The {@code meta} objects of a request's aggregations. */
    public static AggregationMeta of(AggregationTree tree) {
        AggregationMeta meta = new AggregationMeta(tree.roots());
        return AggregationTree.touchesAny(tree.roots(), meta) ? meta : NONE;
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
        return isEmpty() ? rendered : AggregationTree.walk(rendered, roots, typedKeys, this);
    }

    @Override
    public boolean touches(Node node) {
        return node.meta().isPresent() || AggregationTree.touchesAny(node.subs(), this);
    }

    @Override
    public void head(Node node, JsonObjectBuilder out) {
        node.meta().ifPresent(m -> out.put("meta", m));
    }
}
