package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.application.port.in.ByQueryOperations;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryResult;
import io.qdrant.esgateway.application.port.in.ReindexOperations.ReindexResult;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Elasticsearch's {@code BulkByScrollResponse} of {@code _delete_by_query}, {@code _update_by_query} and
 * {@code _reindex}: the answer of a request that waits, the same in a finished task's {@code response}, and a task's
 * {@code status}.
 */
final class BulkByScrollBody {
    /** Which operation: its answer lists {@code updated} and {@code created} only where Elasticsearch does. */
    enum Kind {
        DELETE, UPDATE, REINDEX
    }

    /** The counters of one operation. */
    record Counters(Kind kind, long total, long updated, long created, long deleted, int batches, long conflicts,
                    long noops, List<ByQueryOperations.Failure> failures, float requestsPerSecond) {
        static Counters of(ByQueryResult r, boolean update, float requestsPerSecond) {
            return new Counters(update ? Kind.UPDATE : Kind.DELETE, r.total(), r.updated(), 0, r.deleted(),
                    r.batches(), r.versionConflicts(), r.noops(), r.failures(), requestsPerSecond);
        }

        static Counters of(ReindexResult r, float requestsPerSecond) {
            return new Counters(Kind.REINDEX, r.total(), r.updated(), r.created(), 0, r.batches(),
                    r.versionConflicts(), r.noops(), r.failures(), requestsPerSecond);
        }

        /** The status of the answer: that of the worst failure (409 for a conflict), else 200. */
        int status() {
            int status = 200;
            for (ByQueryOperations.Failure f : failures) {
                status = Math.max(status, ErrorBodies.status(f.cause().kind()));
            }
            return status;
        }
    }

    private BulkByScrollBody() {
    }

    /**
     * The answer: {@code human} adds the {@code throttled} and {@code throttled_until} texts (a task's stored
     * response has them); {@code all} lists {@code updated} and {@code created} whatever the operation (as a task's).
     */
    static JsonObject response(Counters c, long tookMillis, boolean human, boolean all) {
        JsonObjectBuilder out = JsonObjectBuilder.object()
                .put("took", tookMillis)
                .put("timed_out", false);
        counters(out, c, all);
        out.put("retries", JsonObjectBuilder.object().put("bulk", 0).put("search", 0).build());
        if (human) {
            out.put("throttled", "0s");
        }
        out.put("throttled_millis", 0)
                .put("requests_per_second", (double) c.requestsPerSecond());
        if (human) {
            out.put("throttled_until", "0s");
        }
        out.put("throttled_until_millis", 0);
        List<JsonValue> failures = new ArrayList<>();
        for (ByQueryOperations.Failure f : c.failures()) {
            failures.add(JsonObjectBuilder.object().put("index", f.index()).put("id", f.id())
                    .put("cause", ErrorBodies.cause(f.cause(), true))
                    .put("status", ErrorBodies.status(f.cause().kind())).build());
        }
        out.put("failures", new JsonValue.JsonArray(failures));
        return out.build();
    }

    /** A task's {@code status}: the counters without timing and failures. */
    static JsonObject status(Counters c) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        counters(out, c, true);
        return out.put("retries", JsonObjectBuilder.object().put("bulk", 0).put("search", 0).build())
                .put("throttled_millis", 0)
                .put("requests_per_second", (double) c.requestsPerSecond())
                .put("throttled_until_millis", 0)
                .build();
    }

    private static void counters(JsonObjectBuilder out, Counters c, boolean all) {
        out.put("total", c.total());
        if (all || c.kind() != Kind.DELETE) {
            out.put("updated", c.updated());
        }
        if (all || c.kind() == Kind.REINDEX) {
            out.put("created", c.created());
        }
        out.put("deleted", c.deleted())
                .put("batches", c.batches())
                .put("version_conflicts", c.conflicts())
                .put("noops", c.noops());
    }
}
