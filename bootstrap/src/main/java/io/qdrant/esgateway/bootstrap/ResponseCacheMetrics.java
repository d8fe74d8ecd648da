package io.qdrant.esgateway.bootstrap;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.qdrant.esgateway.application.port.in.ResponseCaching;
import java.util.function.ToLongFunction;

/**
 * The shared response cache's outcomes in {@code /metrics}: {@code qeg_response_cache_total{outcome}} with
 * {@code outcome} = {@code hit} (current entry found; served in mode {@code on}), {@code miss}, {@code publish},
 * {@code stale_ticket} (a write moved a generation while the answer was computed: not kept), {@code too_large},
 * {@code uncacheable} (mentions {@code now}, request cache disabled on an index, an error or a partial answer),
 * {@code not_admitted} (computed, not published: its request was not computed {@code QEG_RESPONSE_CACHE_MIN_USES}
 * times lately on this replica) and {@code error} (the server failed; the answer was computed without it). Nothing
 * when the cache is off.
 */
final class ResponseCacheMetrics {
    private ResponseCacheMetrics() {
    }

    static void bind(MeterRegistry registry, ResponseCaching caching) {
        if (caching.mode() == ResponseCaching.Mode.OFF) {
            return;
        }
        counter(registry, caching, "hit", ResponseCaching.Counts::hits);
        counter(registry, caching, "miss", ResponseCaching.Counts::misses);
        counter(registry, caching, "publish", ResponseCaching.Counts::published);
        counter(registry, caching, "stale_ticket", ResponseCaching.Counts::staleTickets);
        counter(registry, caching, "too_large", ResponseCaching.Counts::tooLarge);
        counter(registry, caching, "uncacheable", ResponseCaching.Counts::uncacheable);
        counter(registry, caching, "error", ResponseCaching.Counts::errors);
        counter(registry, caching, "not_admitted", ResponseCaching.Counts::notAdmitted);
    }

    private static void counter(MeterRegistry registry, ResponseCaching caching, String outcome,
                                ToLongFunction<ResponseCaching.Counts> value) {
        FunctionCounter.builder("qeg_response_cache", caching, c -> value.applyAsLong(c.counts()))
                .tag("outcome", outcome)
                .tag("mode", caching.mode().name().toLowerCase(java.util.Locale.ROOT))
                .description("shared response cache outcomes")
                .register(registry);
    }
}
