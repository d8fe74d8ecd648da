package io.qdrant.esgateway.adapter.in.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Result;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a {@code _bulk} answer, {@code {"errors":…,"took":…,"items":[{action: item}, …]}}, in two forms that
 * write the same JSON: {@link #tree} (for {@code ?pretty}) and {@link #write}, which streams it to the generator
 * without building a tree of a thousand items first (that tree and its serialisation were ~7 % of a bulk ingest's
 * CPU). A written item is {@link DocumentResponses#written} plus its {@code status}; a failed one is its
 * prepared body.
 */
final class BulkResponse {
    /** About the bytes of a written item with a short index name and id (sizes the answer's buffer). */
    static final int EXPECTED_ITEM_BYTES = 192;

    private BulkResponse() {
    }

    /** One item's answer: its action name, and either what was written or the failure body (with status, error). */
    record Item(String action, Written written, JsonObjectBuilder failure) {
        boolean failed() {
            return written == null;
        }
    }

    static JsonObject tree(long took, List<Item> items, boolean forcedRefresh) {
        List<JsonValue> rendered = new ArrayList<>(items.size());
        for (Item item : items) {
            JsonObjectBuilder body = item.failed() ? item.failure()
                    : DocumentResponses.written(item.written(), forcedRefresh)
                            .put("status", DocumentResponses.status(item.written()));
            rendered.add(JsonObjectBuilder.object().put(item.action(), body).build());
        }
        return JsonObjectBuilder.object()
                .put("errors", errors(items))
                .put("took", took)
                .put("items", new JsonValue.JsonArray(rendered))
                .build();
    }

    static void write(JsonGenerator g, long took, List<Item> items, boolean forcedRefresh) throws IOException {
        g.writeStartObject();
        g.writeBooleanField("errors", errors(items));
        g.writeNumberField("took", took);
        g.writeArrayFieldStart("items");
        for (Item item : items) {
            g.writeStartObject();
            g.writeFieldName(item.action());
            Written w = item.written();
            if (item.failed() || w.got().isPresent()) {
                JsonCodec.write(g, item.failed() ? item.failure().build()
                        : DocumentResponses.written(w, forcedRefresh).put("status", DocumentResponses.status(w))
                                .build());
            } else {
                // DocumentResponses.written's fields, in its order, without a tree
                g.writeStartObject();
                g.writeStringField("_index", w.index());
                g.writeStringField("_id", w.id());
                g.writeNumberField("_version", w.version().version());
                g.writeStringField("result", w.result().esName());
                if (forcedRefresh && w.result() != Result.NOOP) {
                    g.writeBooleanField("forced_refresh", true);
                }
                int shards = w.result() == Result.NOOP ? 0 : 1;
                g.writeObjectFieldStart("_shards");
                g.writeNumberField("total", shards);
                g.writeNumberField("successful", shards);
                g.writeNumberField("failed", 0);
                g.writeEndObject();
                g.writeNumberField("_seq_no", w.version().seqNo());
                g.writeNumberField("_primary_term", w.version().primaryTerm());
                g.writeNumberField("status", DocumentResponses.status(w));
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static boolean errors(List<Item> items) {
        for (Item item : items) {
            if (item.failed()) {
                return true;
            }
        }
        return false;
    }
}
