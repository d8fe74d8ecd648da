package io.qdrant.esgateway.bench;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The shared response cache's outcomes, summed over a shared-mode engine's replicas from their {@code GET /metrics}
 * ({@code qeg_response_cache_total{outcome}}): read before and after a cell, the difference says whether its answers
 * came from the shared cache (warm, mode on), were computed and published, were computed and not published (a request
 * a replica had not computed {@code QEG_RESPONSE_CACHE_MIN_USES} times: cold) or only coordinated.
 */
record SharedCacheCounts(long hits, long misses, long published, long staleTickets, long notAdmitted) {
    static final SharedCacheCounts ZERO = new SharedCacheCounts(0, 0, 0, 0, 0);

    /**
     * {@link #scrape}, once the counts stand still: a replica publishes a computed answer after it has sent it, so
     * the last publications of a cell may still be under way when its last answer arrives. Reads until two reads
     * 20 ms apart agree, for 2 s at most.
     */
    static SharedCacheCounts settled(List<URI> replicas) {
        SharedCacheCounts last = scrape(replicas);
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            SharedCacheCounts now = scrape(replicas);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    static SharedCacheCounts scrape(List<URI> replicas) {
        SharedCacheCounts sum = ZERO;
        for (URI url : replicas) {
            try (Http http = new Http(url)) {
                Http.Raw raw = http.send("GET", "/metrics", null, null);
                if (!raw.ok()) {
                    throw new IllegalStateException("GET /metrics of " + url + " answered " + raw.status());
                }
                sum = sum.plus(parse(new String(raw.body(), StandardCharsets.UTF_8)));
            }
        }
        return sum;
    }

    static SharedCacheCounts parse(String text) {
        long hits = 0;
        long misses = 0;
        long published = 0;
        long stale = 0;
        long notAdmitted = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith("qeg_response_cache_total{")) {
                continue;
            }
            long value = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            if (line.contains("outcome=\"hit\"")) {
                hits += value;
            } else if (line.contains("outcome=\"miss\"")) {
                misses += value;
            } else if (line.contains("outcome=\"publish\"")) {
                published += value;
            } else if (line.contains("outcome=\"stale_ticket\"")) {
                stale += value;
            } else if (line.contains("outcome=\"not_admitted\"")) {
                notAdmitted += value;
            }
        }
        return new SharedCacheCounts(hits, misses, published, stale, notAdmitted);
    }

    SharedCacheCounts plus(SharedCacheCounts o) {
        return new SharedCacheCounts(hits + o.hits, misses + o.misses, published + o.published,
                staleTickets + o.staleTickets, notAdmitted + o.notAdmitted);
    }

    SharedCacheCounts minus(SharedCacheCounts o) {
        return new SharedCacheCounts(hits - o.hits, misses - o.misses, published - o.published,
                staleTickets - o.staleTickets, notAdmitted - o.notAdmitted);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d hits, %d misses, %d published, %d stale tickets, %d not admitted",
                hits, misses, published, staleTickets, notAdmitted);
    }
}
