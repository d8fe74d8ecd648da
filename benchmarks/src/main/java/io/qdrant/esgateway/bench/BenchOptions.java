package io.qdrant.esgateway.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one benchmark run does, parsed from the {@code ./qeg bench} command line. Every default is the reference
 * profile; {@code --smoke} is the tiny profile the build runs so the runner cannot rot.
 *
 * @param docs      documents in the corpus
 * @param clients   the concurrency levels, each a separate cell
 * @param trials    trials per engine; the engine order is shuffled per trial with {@link #seed}
 * @param engines   the engines, in the order given (the reference is Elasticsearch when present, else the first)
 * @param heap      the maximum heap ({@code -Xmx}) of every engine this runner starts; Elasticsearch and OpenSearch
 *                  also get it as {@code -Xms} (their shipped policy), the gateway does not (as {@code ./qeg run})
 * @param out       where results.json, report.md and p50-ratios.svg go
 * @param requests  measured requests per cell (spread over the clients)
 * @param warmup    unmeasured (but checked) requests per cell before the measured ones
 * @param distinct  distinct requests in each workload's fixed request set
 * @param seed      the corpus, request sets and engine order all derive from it
 * @param vectors   whether the kNN workload (and its vector index) is part of the run
 * @param smoke     the smoke profile was asked for (recorded in the report)
 * @param only      the workloads to run (empty: all); the bulk ingest always runs, it loads the corpus
 * @param requestCache whether the indices keep their engine's request cache ({@code --uncached} creates them with
 *                  {@code index.requests.cache.enable: false} on every engine)
 * @param titleAnalyzer the analyzer of the {@code title} field (that {@code match} searches) on every engine; empty:
 *                  the default ({@code standard})
 * @param cold      every read request carries a {@code preference} never sent before ({@code --cold}): the same
 *                  answer under a new cache key, so the shared response cache misses every time
 * @param replicas  gateway replicas of each shared-mode engine (default 2)
 * @param pinning   the CPUs of the engines and of the runner ({@code --engine-cpus}; default none pinned)
 */
public record BenchOptions(int docs, List<Integer> clients, int trials, List<EngineSpec> engines, String heap, Path out,
                           int requests, int warmup, int distinct, long seed, boolean vectors, boolean smoke,
                           String command, List<String> only, boolean requestCache,
                           java.util.Optional<String> titleAnalyzer, boolean cold, int replicas,
                           CpuPinning pinning) {
    /** The most replicas of a shared-mode engine. */
    static final int MAX_REPLICAS = 8;


    public static final String USAGE = """
            usage: ./qeg bench [options]
              --docs N              documents in the corpus (default 10000)
              --clients 1,8         concurrency levels, one cell each (default 1,8)
              --trials N            trials per engine, engine order shuffled per trial (default 3)
              --engines LIST        comma list of gateway, elasticsearch, opensearch (started by the runner) or
                                    name=http://host:port (an engine already running); default all three.
                                    gateway-qdrant-canned: the gateway on its Qdrant adapter against a canned
                                    in-process Qdrant (the gateway-overhead mode: read workloads, with backend
                                    calls and bytes per request from the gateway's /metrics).
                                    gateway-qdrant: one gateway over the fake Qdrant as a process;
                                    gateway-shared-on, gateway-shared-coordinate: shared mode, two replicas over
                                    the fake Qdrant process and a redis-server, requests alternated;
                                    gateway-shared-on-canned, gateway-shared-coordinate-canned: the same two
                                    replicas and redis-server over the canned Qdrant (read workloads);
                                    gateway-shared-off-canned: those replicas with the response cache off
              --heap SIZE           heap of every engine the runner starts (default 512m)
              --out DIR             output directory (default docs/benchmarks)
              --requests N          measured requests per cell (default 400)
              --warmup N            warm-up requests per cell, checked but not timed (default 100)
              --distinct N          distinct requests per workload (default 50)
              --seed N              seed of corpus, requests and engine order (default 42)
              --no-vectors          leave out the vector index and the kNN workload
              --workloads LIST      run only these workloads, e.g. get,sorted-page (the bulk ingest always runs)
              --uncached            create the indices with index.requests.cache.enable: false on every engine
                                    (no engine answers a repeated size-0 search from its request cache)
              --title-analyzer NAME the analyzer of the title field (match's) on every engine, e.g. english
                                    (Elasticsearch from Maven has only its core analyzers: then leave it out of
                                    --engines and the first engine is the reference)
              --cold                a new cache key on every read request (a preference parameter never sent
                                    before; same answers): shared mode's cold cells. Without it, warm: each
                                    workload's distinct requests repeat
              --replicas N          gateway replicas of each shared-mode engine (default 2, at most 8); 1
                                    measures the shared cache without a second JVM on the machine
              --engine-cpus LIST    run every engine's processes on these CPUs (e.g. 1, or 2-3) and the runner
                                    (clients, Qdrant stand-in) on the others; default: no pinning
              --smoke               tiny profile: 200 docs, 1 trial, 1 client, few requests, gateway + elasticsearch
                                    (later options still override it)
            """;

    /** Parses the arguments; an unknown option or a bad value is an {@link IllegalArgumentException} naming it. */
    public static BenchOptions parse(String[] args) {
        int docs = 10_000;
        List<Integer> clients = List.of(1, 8);
        int trials = 3;
        List<EngineSpec> engines = EngineSpec.parseList("gateway,elasticsearch,opensearch");
        String heap = "512m";
        Path out = Path.of("docs", "benchmarks");
        int requests = 400;
        int warmup = 100;
        int distinct = 50;
        long seed = 42;
        boolean vectors = true;
        boolean smoke = false;
        List<String> only = List.of();
        boolean requestCache = true;
        java.util.Optional<String> titleAnalyzer = java.util.Optional.empty();
        boolean cold = false;
        int replicas = 2;
        CpuPinning pinning = CpuPinning.NONE;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
            boolean inline = !name.equals(arg);
            String value = null;
            if (name.equals("-h") || name.equals("--help")) {
                throw new HelpRequested();
            }
            if (!name.equals("--smoke") && !name.equals("--no-vectors") && !name.equals("--uncached")
                    && !name.equals("--cold")) {
                if (inline) {
                    value = arg.substring(arg.indexOf('=') + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new IllegalArgumentException("option " + name + " needs a value");
                }
            }
            switch (name) {
                case "--docs" -> docs = positive(name, value);
                case "--clients" -> clients = Arrays.stream(value.split(",")).filter(s -> !s.isBlank())
                        .map(s -> positive(name, s.trim())).distinct().toList();
                case "--trials" -> trials = positive(name, value);
                case "--engines" -> engines = EngineSpec.parseList(value);
                case "--heap" -> {
                    if (!value.matches("\\d+[kKmMgG]?")) {
                        throw new IllegalArgumentException("--heap expects a JVM size such as 512m, got [" + value + "]");
                    }
                    heap = value;
                }
                case "--out" -> out = Path.of(value);
                case "--requests" -> requests = positive(name, value);
                case "--warmup" -> warmup = nonNegative(name, value);
                case "--distinct" -> distinct = positive(name, value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--no-vectors" -> vectors = false;
                case "--uncached" -> requestCache = false;
                case "--title-analyzer" -> {
                    if (!value.matches("[a-z_]+")) {
                        throw new IllegalArgumentException("--title-analyzer expects an analyzer name such as english,"
                                + " got [" + value + "]");
                    }
                    titleAnalyzer = java.util.Optional.of(value);
                }
                case "--cold" -> cold = true;
                case "--replicas" -> {
                    replicas = positive(name, value);
                    if (replicas > MAX_REPLICAS) {
                        throw new IllegalArgumentException("--replicas expects 1 to " + MAX_REPLICAS + ", got ["
                                + value + "]");
                    }
                }
                case "--engine-cpus" -> pinning = CpuPinning.parse(value, Runtime.getRuntime().availableProcessors());
                case "--workloads" -> only = Arrays.stream(value.split(",")).map(String::trim)
                        .filter(w -> !w.isEmpty()).distinct().toList();
                case "--smoke" -> {
                    smoke = true;
                    docs = 200;
                    clients = List.of(1);
                    trials = 1;
                    engines = EngineSpec.parseList("gateway,elasticsearch");
                    requests = 20;
                    warmup = 5;
                    distinct = 10;
                }
                default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
            }
        }
        List<String> known = Workloads.all(Corpus.generate(1, 10), 1, 1, true).stream().map(Workload::name).toList();
        for (String name : only) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("--workloads: unknown workload [" + name + "]; known: "
                        + String.join(", ", known));
            }
        }
        if (clients.isEmpty()) {
            throw new IllegalArgumentException("--clients needs at least one level");
        }
        if (engines.isEmpty()) {
            throw new IllegalArgumentException("--engines needs at least one engine");
        }
        String command = System.getProperty("bench.command", "bench " + String.join(" ", args));
        return new BenchOptions(docs, List.copyOf(clients), trials, engines, heap.toLowerCase(Locale.ROOT), out,
                requests, warmup, distinct, seed, vectors, smoke, command, only, requestCache, titleAnalyzer, cold,
                replicas, pinning);
    }

    private static int positive(String name, String value) {
        int n = nonNegative(name, value);
        if (n == 0) {
            throw new IllegalArgumentException(name + " expects a positive whole number, got [" + value + "]");
        }
        return n;
    }

    private static int nonNegative(String name, String value) {
        try {
            int n = Integer.parseInt(value.trim().replace("_", ""));
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + " expects a whole number, got [" + value + "]");
    }

    /** {@code -h}/{@code --help}: not an error; the message is the usage. */
    static final class HelpRequested extends IllegalArgumentException {
        HelpRequested() {
            super(USAGE);
        }
    }
}
