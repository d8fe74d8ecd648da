package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.application.port.in.ByQueryOperations;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryResult;
import io.qdrant.esgateway.application.port.in.ReindexOperations.ReindexResult;
import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    /**
     * The counters of one operation, with its throttle (the current {@code requests_per_second}, the time waited so
     * far, the time until the current wait ends) and why it was cancelled, if it was.
     */
    record Counters(Kind kind, long total, long updated, long created, long deleted, int batches, long conflicts,
                    long noops, List<ByQueryOperations.Failure> failures, float requestsPerSecond,
                    long throttledMillis, long throttledUntilMillis, Optional<String> canceled) {
        static Counters of(ByQueryResult r, boolean update, TaskControl control) {
            return new Counters(update ? Kind.UPDATE : Kind.DELETE, r.total(), r.updated(), 0, r.deleted(),
                    r.batches(), r.versionConflicts(), r.noops(), r.failures(), control.requestsPerSecond(),
                    control.throttledMillis(), control.throttledUntilMillis(), control.cancelled());
        }

        static Counters of(ReindexResult r, TaskControl control) {
            return new Counters(Kind.REINDEX, r.total(), r.updated(), r.created(), 0, r.batches(),
                    r.versionConflicts(), r.noops(), r.failures(), control.requestsPerSecond(),
                    control.throttledMillis(), control.throttledUntilMillis(), control.cancelled());
        }

        /** The counters a running operation reported last, as its task's status; empty before its first report. */
        static Optional<Counters> live(String action, TaskControl control) {
            return control.progress().map(p -> switch (p) {
                case ByQueryResult r -> of(r, action.contains("update"), control);
                case ReindexResult r -> of(r, control);
                default -> throw new IllegalStateException("progress of an unknown kind: " + p.getClass());
            });
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
            out.put("throttled", seconds(c.throttledMillis()));
        }
        out.put("throttled_millis", c.throttledMillis())
                .put("requests_per_second", rate(c.requestsPerSecond()));
        c.canceled().ifPresent(reason -> out.put("canceled", reason));
        if (human) {
            out.put("throttled_until", seconds(c.throttledUntilMillis()));
        }
        out.put("throttled_until_millis", c.throttledUntilMillis());
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
        out.put("retries", JsonObjectBuilder.object().put("bulk", 0).put("search", 0).build())
                .put("throttled_millis", c.throttledMillis())
                .put("requests_per_second", rate(c.requestsPerSecond()));
        c.canceled().ifPresent(reason -> out.put("canceled", reason));
        return out.put("throttled_until_millis", c.throttledUntilMillis())
                .build();
    }

    /** Elasticsearch's {@code requests_per_second}: -1 when unthrottled. */
    private static double rate(float requestsPerSecond) {
        // the float's shortest decimal, as Elasticsearch writes it (0.2, not 0.20000000298023224)
        return requestsPerSecond > 0 && !Float.isInfinite(requestsPerSecond)
                ? Double.parseDouble(Float.toString(requestsPerSecond)) : -1d;
    }

    /** Elasticsearch's human-readable time of a task's stored response: {@code 0s}, {@code 1.2s}, {@code 250ms}. */
    private static String seconds(long millis) {
        if (millis < 1000) {
            return millis == 0 ? "0s" : millis + "ms";
        }
        double s = millis / 1000d;
        return (s == Math.rint(s) ? String.valueOf((long) s) : String.format(java.util.Locale.ROOT, "%.1f", s)) + "s";
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
