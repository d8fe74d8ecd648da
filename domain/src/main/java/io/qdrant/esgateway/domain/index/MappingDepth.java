package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Map;
import java.util.Optional;

/**
 * Elasticsearch's {@code index.mapping.depth.limit} (20) on explicit mappings: the root counts 1 and each object
 * field one more, so an object at {@code a.b.c} is at depth 4. A mapping with an object deeper than the limit is
 * refused (index creation, mapping updates) with ES's {@code illegal_argument_exception}, naming the shallowest such
 * object.
 */
public final class MappingDepth {
    /** The default of {@code index.mapping.depth.limit}. */
    public static final int LIMIT = 20;

    private MappingDepth() {
    }

    /** Throws ES's 400 when {@code mappings} hold an object deeper than {@link #LIMIT}. */
    public static void check(Mappings mappings) {
        deepest(mappings.properties(), "", 1).ifPresent(path -> {
            throw GatewayException.illegalArgument("Limit of mapping depth [" + LIMIT
                    + "] has been exceeded due to object field [" + path + "]");
        });
    }

    /** The first object (shallowest, then by name) past the limit under {@code properties} at {@code depth}. */
    private static Optional<String> deepest(Map<String, FieldMapping> properties, String prefix, int depth) {
        for (Map.Entry<String, FieldMapping> e : properties.entrySet()) {
            if (e.getValue() instanceof FieldMapping.ObjectField && depth + 1 > LIMIT) {
                return Optional.of(prefix + e.getKey());
            }
        }
        for (Map.Entry<String, FieldMapping> e : properties.entrySet()) {
            if (e.getValue() instanceof FieldMapping.ObjectField o) {
                Optional<String> found = deepest(o.properties(), prefix + e.getKey() + ".", depth + 1);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }
}
