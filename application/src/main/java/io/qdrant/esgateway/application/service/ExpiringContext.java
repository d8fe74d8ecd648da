package io.qdrant.esgateway.application.service;

import java.time.Instant;
import java.util.Map;

/** A search context kept between requests (a scroll, a point in time) until its keep-alive runs out. */
interface ExpiringContext {

    /** When the keep-alive runs out. */
    Instant expires();

    /** Releases what the context holds (e.g. a held index reader). */
    void close();

    /** Closes and removes every context of {@code contexts} whose keep-alive has run out by {@code now}. */
    static void closeExpired(Map<String, ? extends ExpiringContext> contexts, Instant now) {
        contexts.entrySet().removeIf(e -> {
            if (!e.getValue().expires().isAfter(now)) {
                e.getValue().close();
                return true;
            }
            return false;
        });
    }
}
