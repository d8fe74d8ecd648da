package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.Map;
import java.util.Optional;

/** Elasticsearch's refusal of a document operation without {@code routing} on an index that requires one. */
final class RoutingRequired {
    private RoutingRequired() {
    }

    static void check(IndexMetadata index, Optional<String> routing, String id) {
        if (routing.isEmpty() && index.mappings().root().requiresRouting()) {
            throw new GatewayException(ErrorKind.ROUTING_MISSING, "routing is required for [" + index.name() + "]/["
                    + id + "]", Map.of("index_uuid", "_na_", "index", index.name()), null);
        }
    }
}
