package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.application.port.in.DocumentOperations.GetResult;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Result;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;

/** The response bodies of the document APIs, in Elasticsearch's field order. */
final class DocumentResponses {
    private DocumentResponses() {
    }

    /** The body of an index/create/delete/update response, or of a successful bulk item (with its status). */
    static JsonObjectBuilder written(Written w, boolean forcedRefresh) {
        JsonObjectBuilder b = JsonObjectBuilder.object()
                .put("_index", w.index())
                .put("_id", w.id())
                .put("_version", w.version().version())
                .put("result", w.result().esName());
        if (forcedRefresh && w.result() != Result.NOOP) {
            b.put("forced_refresh", true);
        }
        int shards = w.result() == Result.NOOP ? 0 : 1;
        b.put("_shards", JsonObjectBuilder.object().put("total", shards).put("successful", shards).put("failed", 0))
                .put("_seq_no", w.version().seqNo())
                .put("_primary_term", w.version().primaryTerm());
        w.got().ifPresent(doc -> {
            JsonObjectBuilder got = JsonObjectBuilder.object()
                    .put("_seq_no", doc.version().seqNo())
                    .put("_primary_term", doc.version().primaryTerm());
            b.put("get", got.put("found", true).put("_source", doc.source()).build());
        });
        return b;
    }

    static int status(Written w) {
        return switch (w.result()) {
            case CREATED -> 201;
            case NOT_FOUND -> 404;
            case UPDATED, DELETED, NOOP -> 200;
        };
    }

    /** The body of {@code GET /{index}/_doc/{id}} and of an {@code _mget} item. */
    static JsonObject got(GetResult result, SourceFilter filter) {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("_index", result.index()).put("_id", result.id());
        if (result.document().isEmpty()) {
            return b.put("found", false).build();
        }
        StoredDocument doc = result.document().get();
        b.put("_version", doc.version().version())
                .put("_seq_no", doc.version().seqNo())
                .put("_primary_term", doc.version().primaryTerm());
        doc.routing().ifPresent(r -> b.put("_routing", r));
        b.put("found", true);
        if (filter.fetch() && !result.sourceHidden()) {
            b.put("_source", filter.apply(doc.source()));
        }
        return b.build();
    }

    /** A failed item ({@code _bulk}, {@code _mget}): index, id, and the error as ES renders a cause. */
    static JsonObjectBuilder failed(String index, String id, GatewayException error) {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("_index", index);
        if (id != null) {
            b.put("_id", id);
        }
        return b;
    }
}
