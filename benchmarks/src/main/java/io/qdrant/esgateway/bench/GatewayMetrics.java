package io.qdrant.esgateway.bench;

import java.nio.charset.StandardCharsets;

/**
 * The totals the gateway-overhead mode reads from the gateway's {@code GET /metrics} (Prometheus text) before and
 * after a cell; the difference, divided by the requests of the cell, is what one request cost at the backend.
 *
 * @param backendCalls     {@code qeg_backend_requests_total}, every operation and status
 * @param bytesReceived    {@code qeg_backend_bytes_received_total}
 * @param bytesSent        {@code qeg_backend_bytes_sent_total}
 * @param backendSeconds   {@code qeg_backend_request_seconds_sum}
 * @param gatewaySeconds   {@code es_requests_seconds_sum} of every API but {@code gateway.metrics}: the gateway's
 *                         own time from reading a request to having sent its answer
 * @param gatewayRequests  {@code es_requests_seconds_count} of the same
 * @param own              {@code qeg_request_own_seconds_bucket} of the same: per request, the gateway's time minus
 *                         the wall time inside its backend calls (empty from a gateway without that metric)
 * @param ownSeconds       {@code qeg_request_own_seconds_sum} of the same
 * @param ownRequests      {@code qeg_request_own_seconds_count} of the same (0 from a gateway without that metric)
 */
public record GatewayMetrics(double backendCalls, double bytesReceived, double bytesSent, double backendSeconds,
                             double gatewaySeconds, double gatewayRequests, OwnTimeHistogram own, double ownSeconds,
                             double ownRequests) {

    public GatewayMetrics(double backendCalls, double bytesReceived, double bytesSent, double backendSeconds,
                          double gatewaySeconds, double gatewayRequests) {
        this(backendCalls, bytesReceived, bytesSent, backendSeconds, gatewaySeconds, gatewayRequests,
                OwnTimeHistogram.EMPTY, 0, 0);
    }

    public static GatewayMetrics scrape(Http http) {
        Http.Raw raw = http.send("GET", "/metrics", null, null);
        if (!raw.ok()) {
            throw new IllegalStateException("GET /metrics answered " + raw.status());
        }
        return parse(new String(raw.body(), StandardCharsets.UTF_8));
    }

    /** The totals of every URL's {@code GET /metrics} summed (shared mode's replicas). */
    public static GatewayMetrics scrape(java.util.List<java.net.URI> urls) {
        GatewayMetrics sum = null;
        for (java.net.URI url : urls) {
            try (Http http = new Http(url)) {
                GatewayMetrics one = scrape(http);
                sum = sum == null ? one : sum.plus(one);
            }
        }
        return sum;
    }

    /** This process's totals and {@code o}'s together. */
    GatewayMetrics plus(GatewayMetrics o) {
        return new GatewayMetrics(backendCalls + o.backendCalls, bytesReceived + o.bytesReceived,
                bytesSent + o.bytesSent, backendSeconds + o.backendSeconds, gatewaySeconds + o.gatewaySeconds,
                gatewayRequests + o.gatewayRequests, own.plus(o.own), ownSeconds + o.ownSeconds,
                ownRequests + o.ownRequests);
    }

    static GatewayMetrics parse(String text) {
        double calls = 0;
        double received = 0;
        double sent = 0;
        double backend = 0;
        double gateway = 0;
        double requests = 0;
        double ownSum = 0;
        double ownCount = 0;
        java.util.SortedMap<Double, Double> own = new java.util.TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = line.substring(0, brace > 0 ? brace : line.indexOf(' '));
            double value;
            try {
                value = Double.parseDouble(line.substring(space + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            boolean ownScrape = line.contains("api=\"gateway.metrics\"");
            switch (name) {
                case "qeg_backend_requests_total" -> calls += value;
                case "qeg_backend_bytes_received_total" -> received += value;
                case "qeg_backend_bytes_sent_total" -> sent += value;
                case "qeg_backend_request_seconds_sum" -> backend += value;
                case "es_requests_seconds_sum" -> gateway += ownScrape ? 0 : value;
                case "es_requests_seconds_count" -> requests += ownScrape ? 0 : value;
                case "qeg_request_own_seconds_sum" -> ownSum += ownScrape ? 0 : value;
                case "qeg_request_own_seconds_count" -> ownCount += ownScrape ? 0 : value;
                case "qeg_request_own_seconds_bucket" -> {
                    int le = line.indexOf("le=\"");
                    if (!ownScrape && le >= 0) {
                        OwnTimeHistogram.add(own, line.substring(le + 4, line.indexOf('"', le + 4)), value);
                    }
                }
                default -> {
                    // not needed
                }
            }
        }
        return new GatewayMetrics(calls, received, sent, backend, gateway, requests, new OwnTimeHistogram(own), ownSum,
                ownCount);
    }

    /**
     * What happened between {@code before} and this, per request of a cell of {@code requests} requests. The mean own
     * time is the own-time metric's mean when the gateway has it: the backend time summed over calls counts a call
     * that overlaps another (a count sent beside a query) twice, so the gateway's time minus it understates the own
     * time; only a gateway without the metric gets that difference.
     */
    public Results.BackendUse perRequestSince(GatewayMetrics before, long requests) {
        double n = Math.max(1, requests);
        double gatewayMs = (gatewaySeconds - before.gatewaySeconds) * 1000 / n;
        double backendMs = (backendSeconds - before.backendSeconds) * 1000 / n;
        double ownCounted = ownRequests - before.ownRequests;
        double ownMs = ownCounted > 0 ? (ownSeconds - before.ownSeconds) * 1000 / ownCounted : gatewayMs - backendMs;
        OwnTimeHistogram ownSince = own.since(before.own);
        return new Results.BackendUse(requests, (backendCalls - before.backendCalls) / n,
                (bytesReceived - before.bytesReceived) / n, (bytesSent - before.bytesSent) / n, gatewayMs, backendMs,
                ownMs, ownSince.quantileMs(0.50), ownSince.quantileMs(0.95));
    }
}
