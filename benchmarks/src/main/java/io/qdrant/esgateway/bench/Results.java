package io.qdrant.esgateway.bench;

import java.util.List;
import java.util.Map;

/**
 * Everything a run produced, written as results.json and rendered as report.md and p50-ratios.svg.
 *
 * @param run       when, what command, which commit, the options
 * @param machine   cores, memory, JDK, OS, load before and after
 * @param engines   each engine: how it ran, its RSS at the end
 * @param workloads name → what it measures
 * @param trials    one row per (trial, engine, workload, clients)
 * @param cells     the summary per (engine, workload, clients) over the trials
 * @param requests  per (engine, read workload, clients): the latency of each distinct request over all trials
 */
public record Results(Map<String, Object> run, Map<String, Object> machine, List<EngineFacts> engines,
                      Map<String, String> workloads, List<Trial> trials, List<Cell> cells,
                      List<RequestCosts> requests) {

    public Results(Map<String, Object> run, Map<String, Object> machine, List<EngineFacts> engines,
                   Map<String, String> workloads, List<Trial> trials, List<Cell> cells) {
        this(run, machine, engines, workloads, trials, cells, List.of());
    }

    /**
     * The latency of each distinct request of a read workload on one engine at one concurrency level, over the
     * measured requests of all its valid trials: which requests an engine answers slowly, and how much of its tail
     * the cost of the requests themselves does not explain.
     *
     * @param medianMs  per distinct request (by its index in the workload's set), the median of its latencies in ms;
     *                  {@code null} for a request that was not measured
     * @param samples   per distinct request, how many latencies it had
     * @param tailShare the share of all latencies above twice their own request's median: the tail that is not the
     *                  cost of a request (pauses, scheduling, noise)
     */
    public record RequestCosts(String engine, String workload, int clients, List<Double> medianMs,
                               List<Integer> samples, double tailShare) {
    }

    /**
     * One engine of the run.
     *
     * @param name          its column name
     * @param kind          gateway, elasticsearch, opensearch or url
     * @param nativeEngine  whether it is a baseline of the ratios (Elasticsearch or OpenSearch)
     * @param url           where it answered
     * @param version       {@code version.number} (and distribution) from {@code GET /}
     * @param pid           the process (started engines)
     * @param startupMillis from process start to the first 200 on {@code GET /}
     * @param rssKib        VmRSS at the end of the run
     * @param peakRssKib    VmHWM at the end of the run
     * @param notes         e.g. why its vector index could not be created
     */
    /**
     * What the run knows of one engine. Resident sets (KiB, null for an engine given by URL): {@code
     * rssAfterLoadKib} right after the engine's last cell of the final trial, {@code rssKib} at the end of the run
     * after every engine was idle for the same time ({@link Runner#REST_MILLIS}), {@code peakRssKib} the process's
     * high-water mark.
     */
    public record EngineFacts(String name, String kind, boolean nativeEngine, String url, String version, Long pid,
                              Long startupMillis, Long rssAfterLoadKib, Long rssKib, Long peakRssKib,
                              List<String> notes) {
    }

    /**
     * One trial of one cell.
     *
     * @param trial         1-based
     * @param position      the engine's place in this trial's shuffled order (1-based)
     * @param p50Ms         median latency (ingest: the whole ingest)
     * @param docsPerSecond ingest only
     * @param cpuMsPerRequest the engine process's CPU time (all its threads, user + system) over the measured phase
     *                      divided by the measured requests (ingest: by the documents); null when the runner did not
     *                      start the engine
     */
    public record Trial(int trial, int position, String engine, String workload, int clients, Status status,
                        String detail, int requests, Double p50Ms, Double p95Ms, Double throughput,
                        Double docsPerSecond, BackendUse backend, Double cpuMsPerRequest) {
        public Trial(int trial, int position, String engine, String workload, int clients, Status status,
                     String detail, int requests, Double p50Ms, Double p95Ms, Double throughput,
                     Double docsPerSecond, BackendUse backend) {
            this(trial, position, engine, workload, clients, status, detail, requests, p50Ms, p95Ms, throughput,
                    docsPerSecond, backend, null);
        }

        /** This trial with the engine's CPU ms per request (ingest: per document) of its measured phase. */
        public Trial withCpu(Double cpuMs) {
            return new Trial(trial, position, engine, workload, clients, status, detail, requests, p50Ms, p95Ms,
                    throughput, docsPerSecond, backend, cpuMs);
        }

        public Trial(int trial, int position, String engine, String workload, int clients, Status status,
                     String detail, int requests, Double p50Ms, Double p95Ms, Double throughput,
                     Double docsPerSecond) {
            this(trial, position, engine, workload, clients, status, detail, requests, p50Ms, p95Ms, throughput,
                    docsPerSecond, null);
        }
    }

    /**
     * What one request of a cell cost at the backend, from the gateway's {@code /metrics} before and after the cell
     * (warm-up included in both the counts and the divisor); only for the gateway-overhead mode, else {@code null}.
     *
     * @param requests              the requests of the cell (warm-up and measured)
     * @param backendCallsPerRequest calls to Qdrant
     * @param bytesReadPerRequest   response body bytes read from Qdrant
     * @param bytesSentPerRequest   request body bytes sent to Qdrant
     * @param gatewayMsPerRequest   the gateway's own mean time per request ({@code es_requests_seconds}), from
     *                              reading the request to having written the answer, backend calls included
     * @param backendMsPerRequest   the mean time spent in calls to Qdrant ({@code qeg_backend_request_seconds});
     *                              calls of one request may overlap, so this can exceed the request's time
     * @param ownMsPerRequest       gateway time minus backend time: the gateway's overhead per request
     * @param ownP50Ms              the p50 of the per-request own time ({@code qeg_request_own_seconds}: each
     *                              request's time minus the wall time inside its backend calls, overlapping calls
     *                              counted once), the upper bound of its histogram bucket; null without that metric
     * @param ownP95Ms              the p95 of the same
     */
    public record BackendUse(long requests, double backendCallsPerRequest, double bytesReadPerRequest,
                             double bytesSentPerRequest, double gatewayMsPerRequest, double backendMsPerRequest,
                             double ownMsPerRequest, Double ownP50Ms, Double ownP95Ms) {
        public BackendUse(long requests, double backendCallsPerRequest, double bytesReadPerRequest,
                          double bytesSentPerRequest, double gatewayMsPerRequest, double backendMsPerRequest,
                          double ownMsPerRequest) {
            this(requests, backendCallsPerRequest, bytesReadPerRequest, bytesSentPerRequest, gatewayMsPerRequest,
                    backendMsPerRequest, ownMsPerRequest, null, null);
        }
    }

    /**
     * A cell over its trials: the median of the trial p50s and p95s, the median throughput and the min–max of the
     * trial p50s, the median of the trials' engine CPU per request, and (gateway-overhead mode) per figure the median
     * of the trials' backend use; a cell with any wrong answer is {@link Status#INVALID} and has no timings.
     */
    public record Cell(String engine, String workload, int clients, Status status, String detail, int trials,
                       Double p50Ms, Double p95Ms, Double p50MinMs, Double p50MaxMs, Double throughput,
                       Double docsPerSecond, BackendUse backend, Double cpuMsPerRequest) {
        public Cell(String engine, String workload, int clients, Status status, String detail, int trials,
                    Double p50Ms, Double p95Ms, Double p50MinMs, Double p50MaxMs, Double throughput,
                    Double docsPerSecond, BackendUse backend) {
            this(engine, workload, clients, status, detail, trials, p50Ms, p95Ms, p50MinMs, p50MaxMs, throughput,
                    docsPerSecond, backend, null);
        }

        public Cell(String engine, String workload, int clients, Status status, String detail, int trials,
                    Double p50Ms, Double p95Ms, Double p50MinMs, Double p50MaxMs, Double throughput,
                    Double docsPerSecond) {
            this(engine, workload, clients, status, detail, trials, p50Ms, p95Ms, p50MinMs, p50MaxMs, throughput,
                    docsPerSecond, null);
        }
    }
}
