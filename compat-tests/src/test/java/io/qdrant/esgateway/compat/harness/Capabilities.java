package io.qdrant.esgateway.compat.harness;

import java.util.Set;

/**
 * What the gateway can answer today, by name. A scenario step or case that {@code requires} a capability not listed
 * here is sent to the oracle only (and must succeed there: this keeps generated corpora and queries valid
 * Elasticsearch), and is compared with the gateway as soon as the issue that brings the capability adds it here.
 * <ul>
 *   <li>{@code documents}: indexing and reading documents ({@code _bulk}, {@code _doc}, {@code _mget});</li>
 *   <li>{@code search}: {@code _search} and {@code _count} with queries, sorts, pagination;</li>
 *   <li>{@code aggregations}: {@code aggs} in {@code _search} (the Search II issue).</li>
 * </ul>
 */
public final class Capabilities {
    public static final Set<String> KNOWN = Set.of("documents", "search", "aggregations");
    public static final Set<String> GATEWAY = Set.of("documents", "search", "aggregations");

    private Capabilities() {
    }

    public static boolean gatewayHas(Set<String> required) {
        return GATEWAY.containsAll(required);
    }
}
