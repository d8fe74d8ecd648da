package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The partials of a level of aggregations by name (request order): what one index (or any partition) answers for a
 * request's {@code aggs}, and what each bucket holds for its sub-aggregations. Merging is by name.
 */
public record NamedPartials(Map<String, Partial> byName) {
    public static final NamedPartials EMPTY = new NamedPartials(Map.of());

    public NamedPartials {
        byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    public NamedPartials merge(NamedPartials other) {
        if (byName.isEmpty()) {
            return other;
        }
        Map<String, Partial> out = new LinkedHashMap<>(byName);
        other.byName.forEach((name, p) -> {
            try {
                out.merge(name, p, Partial::merge);
            } catch (MixedTypes e) {
                throw GatewayException.reduceFailed(GatewayException.illegalArgument("Merging/Reducing the"
                        + " aggregations failed when computing the aggregation [" + name + "] because the field you"
                        + " gave in the aggregation query existed as two different types in two different indices"));
            }
        });
        return new NamedPartials(out);
    }

    /** Thrown by a partial that cannot merge with another one's field type; reported with the aggregation's name. */
    static final class MixedTypes extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MixedTypes() {
            super(null, null, false, false);
        }
    }

    /** All partials merged, in order (the empty level when there are none). */
    public static NamedPartials mergeAll(List<NamedPartials> partials) {
        NamedPartials out = EMPTY;
        for (NamedPartials p : partials) {
            out = out.merge(p);
        }
        return out;
    }

    /** The final answers, as the {@code aggregations} object of a search response. */
    public JsonObject render() {
        return render(false);
    }

    /** The final answers; {@code typedKeys}: each named {@code <type>#<name>} at every depth ({@code typed_keys}). */
    public JsonObject render(boolean typedKeys) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        renderInto(out, typedKeys);
        return out.build();
    }

    /** Adds each aggregation's final answer to a bucket (or the top level) under its name. */
    public void renderInto(JsonObjectBuilder target) {
        renderInto(target, false);
    }

    /** Adds each final answer under its name, or under {@code <type>#<name>} when {@code typedKeys}. */
    public void renderInto(JsonObjectBuilder target, boolean typedKeys) {
        if (typedKeys) {
            byName.forEach((name, p) -> target.put(p.typedName() + "#" + name, p.render(true)));
        } else {
            byName.forEach((name, p) -> target.put(name, p.render(false)));
        }
    }

    /** Each partial completed with {@code universe} (see {@link Partial#complete}). */
    public NamedPartials complete(KeyUniverse universe) {
        Map<String, Partial> out = new LinkedHashMap<>();
        byName.forEach((name, p) -> out.put(name, p.complete(universe)));
        return new NamedPartials(out);
    }

    /**
     * The value a parent orders its buckets by: {@code name} or {@code name.key}, or {@code name>rest} through a
     * single-bucket aggregation (which gets {@code ">rest"} as its key).
     */
    public double orderValue(String path) {
        int gt = path.indexOf('>');
        if (gt >= 0) {
            Partial p = byName.get(path.substring(0, gt));
            if (p == null) {
                throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ILLEGAL_ARGUMENT,
                        "no aggregation [" + path.substring(0, gt) + "]");
            }
            return p.orderValue(path.substring(gt));
        }
        int dot = path.indexOf('.');
        String name = dot < 0 ? path : path.substring(0, dot);
        String key = dot < 0 ? "" : path.substring(dot + 1);
        Partial p = byName.get(name);
        if (p == null) {
            throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ILLEGAL_ARGUMENT,
                    "no aggregation [" + name + "]");
        }
        return p.orderValue(key);
    }
}
