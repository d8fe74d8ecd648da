package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.oracle.launcher.ChildJvm;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One benchmark run: start the engines (all at once), load the reference engine and compute every expected answer,
 * then per trial, in an engine order shuffled with the seed, per engine: the bulk ingest, then every workload at every
 * concurrency level. Then RSS, stop, summarise. The engines this runner started are stopped on every path.
 */
public final class Runner {
    private static final String WRITE_INDEX = "bench-writes";
    private static final int BULK_BATCH = 1000;
    private static final String CANNED_WRITES = "not measured against the canned Qdrant responder: it replays the "
            + "answers of reads, and a write changes what later calls must answer";

    private final BenchOptions options;
    private final Path root;
    private final PrintStream log;
    private final Corpus corpus;
    private final List<Workload> workloads;
    /** workload → expected checked answer per request; absent when the reference refused it. */
    private final Map<String, List<JsonNode>> expected = new HashMap<>();
    private final Map<String, String> refusedByReference = new HashMap<>();
    private final Map<String, List<String>> notes = new HashMap<>();
    private final Map<String, String> vectorsRefused = new HashMap<>();
    /** The ingest's {@code _bulk} bodies, built once (outside every timed span) when first needed. */
    private BulkBodies mainBodies;
    private BulkBodies vectorBodies;
    /** The vector index also holds the cosine twin field (the script-score-vector workload runs). */
    private final boolean cosineVectors;
    /** Engines whose cosine vector field gets a {@code flat} index (exact kNN): Elasticsearch's. */
    private final java.util.Set<String> flatVectorEngines = new java.util.HashSet<>();
    /** engine → workload → why the gateway on the canned Qdrant cannot measure it (found while recording). */
    private final Map<String, Map<String, CellFailure>> cannedRefused = new HashMap<>();
    /** The measured latencies of the read cells by distinct request, over all trials. */
    private final PerRequest perRequest = new PerRequest();
    /** Shared-mode engine → workload → the shared response cache's outcomes over its cells, all trials. */
    private final Map<String, Map<String, SharedCacheCounts>> sharedCache = new java.util.TreeMap<>();

    public Runner(BenchOptions options, Path root, PrintStream log) {
        this.options = options;
        this.root = root;
        this.log = log;
        this.corpus = Corpus.generate(options.seed(), options.docs());
        List<Workload> all = Workloads.all(corpus, options.seed(), options.distinct(), options.vectors());
        // an opt-in workload runs only when named
        this.workloads = all.stream().filter(w -> w.kind() == Workload.Kind.INGEST || (options.only().isEmpty()
                ? !Workloads.OPT_IN.contains(w.name()) : options.only().contains(w.name()))).toList();
        this.cosineVectors = workloads.stream().anyMatch(w -> w.name().equals(Workloads.SCRIPT_SCORE_VECTOR));
    }

    public Results run() {
        Map<String, Object> machine = Machine.facts();
        Instant started = Instant.now();
        options.pinning().apply();
        List<RunningEngine> engines = startAll();
        engines.stream().filter(e -> e.spec().kind() == EngineSpec.Kind.ELASTICSEARCH)
                .forEach(e -> flatVectorEngines.add(e.spec().name()));
        Thread hook = new Thread(() -> engines.forEach(RunningEngine::close), "bench-stop-engines");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            RunningEngine reference = engines.stream().filter(e -> e.spec().kind() == EngineSpec.Kind.ELASTICSEARCH)
                    .findFirst().or(() -> engines.stream().filter(e -> !(e instanceof CannedEngine)).findFirst())
                    .orElse(engines.getFirst());
            say("reference engine: %s; corpus %,d documents, seed %d", reference.spec().name(), corpus.size(),
                    options.seed());
            computeExpected(reference);
            for (RunningEngine e : engines) {
                if (e instanceof CannedEngine canned) {
                    record(canned);
                }
            }
            for (RunningEngine e : engines) {
                if (e != reference && !(e instanceof CannedEngine)) {
                    warmUpIngest(e);
                }
            }
            List<Results.Trial> trials = new ArrayList<>();
            Map<String, Long> rssAfterLoad = new HashMap<>();
            for (int t = 1; t <= options.trials(); t++) {
                List<RunningEngine> order = new ArrayList<>(engines);
                Collections.shuffle(order, new Random(options.seed() * 7919 + t));
                for (int position = 0; position < order.size(); position++) {
                    RunningEngine engine = order.get(position);
                    trials.addAll(trial(engine, t, position + 1));
                    if (t == options.trials()) {
                        rssKib(engine, "VmRSS").ifPresent(kib -> rssAfterLoad.put(engine.spec().name(), kib));
                    }
                }
            }
            rest();
            List<Results.EngineFacts> facts = engines.stream()
                    .map(e -> facts(e, rssAfterLoad.get(e.spec().name()))).toList();
            machine.put("load_average_end", Machine.loadAverage());
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("started", started.toString());
            run.put("finished", Instant.now().toString());
            run.put("command", options.command());
            run.put("commit", System.getProperty("bench.commit", "unknown"));
            run.put("profile", options.smoke() ? "smoke" : "custom/reference");
            run.put("docs", options.docs());
            run.put("clients", options.clients());
            run.put("trials", options.trials());
            run.put("requests_per_cell", options.requests());
            run.put("warmup_per_cell", options.warmup());
            run.put("distinct_requests", options.distinct());
            run.put("seed", options.seed());
            run.put("heap", options.heap());
            run.put("request_cache", options.requestCache() ? "engine defaults" : "off on every engine (--uncached)");
            options.titleAnalyzer().ifPresent(a -> run.put("title_analyzer", a));
            run.put("cache_keys", options.cold() ? "cold: a new preference parameter on every read request (--cold)"
                    : "warm: each workload's distinct requests repeated");
            if (engines.stream().anyMatch(e -> e.spec().kind().sharedMode())) {
                run.put("shared_mode_replicas", options.replicas());
            }
            run.put("cpu_pinning", options.pinning().describe());
            run.put("reference_engine", reference.spec().name());
            Map<String, String> titles = new LinkedHashMap<>();
            workloads.forEach(w -> titles.put(w.name(), w.title()));
            return new Results(run, machine, facts, titles, trials, Summary.cells(trials), perRequest.costs());
        } finally {
            engines.forEach(RunningEngine::close);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    /** Starts every engine in parallel; if one cannot start, the others are stopped and the run fails. */
    private List<RunningEngine> startAll() {
        Path logs = root.resolve("benchmarks/target/bench-logs");
        List<CompletableFuture<RunningEngine>> starting = new ArrayList<>();
        for (EngineSpec spec : options.engines()) {
            starting.add(CompletableFuture.supplyAsync(() -> {
                if (spec.kind() == EngineSpec.Kind.URL) {
                    return RunningEngine.atUrl(spec);
                }
                RunningEngine e = CannedEngine.starts(spec.kind())
                        ? CannedEngine.start(spec, root, options.heap(), logs, options.replicas())
                        : QdrantProcessEngine.starts(spec.kind())
                        ? QdrantProcessEngine.start(spec, root, options.heap(), logs, options.replicas())
                        : ChildEngine.start(spec, root, options.heap(), logs);
                say("%s: pid %d, %s, answered after %.1f s (heap %s)", spec.name(), e.pid().orElse(-1), e.url(),
                        e.startupMillis().orElse(0L) / 1000.0, options.heap());
                return e;
            }));
        }
        List<RunningEngine> engines = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<RunningEngine> f : starting) {
            try {
                engines.add(f.join());
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            engines.forEach(RunningEngine::close);
            throw new IllegalStateException("an engine could not be started: " + failure.getMessage(), failure);
        }
        return engines;
    }

    private void computeExpected(RunningEngine reference) {
        try (Http http = new Http(reference.url())) {
            computeExpected(reference, http);
        }
    }

    private void computeExpected(RunningEngine reference, Http http) {
        ingest(http, reference.spec().name());
        for (Workload w : workloads) {
            if (w.kind() != Workload.Kind.READ) {
                continue;
            }
            List<JsonNode> answers = new ArrayList<>();
            for (Request request : w.forReference()) {
                Http.Raw raw = http.send(request);
                if (!raw.ok()) {
                    refusedByReference.put(w.name(), "the reference engine (" + reference.spec().name() + ") answered "
                            + raw.error());
                    say("workload %s: refused by the reference engine: %s", w.name(), raw.error());
                    break;
                }
                answers.add(Answers.canonical(w.shape(), raw.json()));
            }
            if (!refusedByReference.containsKey(w.name())) {
                expected.put(w.name(), List.copyOf(answers));
            }
        }
    }

    /**
     * The recording phase of the engines over the canned Qdrant: the corpus is loaded through the (first) gateway into
     * the stand-in Qdrant, the recordings of those writes are dropped, every request of every read workload is sent
     * once to each replica (twice to a shared-mode replica, which publishes an answer on its second computation) (so
     * each replica's own calls, such as first-use reads, are recorded; a refusal makes the
     * workload unsupported on this backend, a wrong answer is noted and the measured cells will show it), then the
     * responder switches to replay. Where the cells send cold variants ({@code --cold}) or a replica's plain request
     * may be answered from the shared cache, cold variants are sent too, so the calls of the miss path are recorded;
     * with {@code --cold} a workload whose Qdrant calls change with the cold key is unsupported in its cells (replay
     * could not answer them).
     */
    private void record(CannedEngine engine) {
        String name = engine.spec().name();
        try (Http http = new Http(engine.url())) {
            ingest(http, name);
        }
        engine.responder().forget();
        for (java.net.URI url : engine.urls()) {
            try (Http http = new Http(url)) {
                recordReads(engine, http);
            }
        }
        List<String> violations = engine.replay();
        say("%s: recorded %,d distinct Qdrant calls of the read workloads; replaying from now on%s", name,
                engine.responder().recorded(), violations.isEmpty() ? ""
                        : " (the stand-in saw " + violations.size() + " OpenAPI violations: " + violations.getFirst() + ")");
        notes.computeIfAbsent(name, k -> new ArrayList<>()).add("Qdrant answers replayed by the canned responder ("
                + engine.responder().recorded() + " distinct calls recorded from FakeQdrant)");
        if (!violations.isEmpty()) {
            notes.get(name).add("FakeQdrant saw " + violations.size() + " OpenAPI violations, first: "
                    + violations.getFirst());
        }
    }

    /** One replica's part of {@link #record}: every read workload's requests, over {@code http} (that replica). */
    private void recordReads(CannedEngine engine, Http http) {
        String name = engine.spec().name();
        Map<String, CellFailure> refused = cannedRefused.computeIfAbsent(name, k -> new HashMap<>());
        http.send("GET", "/", null, null);
        for (Workload w : workloads) {
            if (refused.containsKey(w.name())) {
                continue;
            }
            if (w.kind() == Workload.Kind.SCROLL) {
                // one whole walk: its Qdrant calls (the same on every walk) are what the cells replay
                try {
                    new ScrollWalk(corpus).run(http, 0, 0);
                } catch (CellFailure f) {
                    refused.put(w.name(), f);
                    say("%s: workload %s: %s", name, w.name(), f.getMessage());
                }
                continue;
            }
            if (w.kind() != Workload.Kind.READ || refusedByReference.containsKey(w.name())
                    || (Workloads.usesVectors(w) && vectorsRefused.containsKey(name))) {
                continue;
            }
            List<JsonNode> want = expected.get(w.name());
            for (int i = 0; i < w.requests().size() && !refused.containsKey(w.name()); i++) {
                Request request = w.requests().get(i);
                List<Request> sent = new ArrayList<>(List.of(request));
                if (engine.shared()) {
                    // computed a second time, so a replica publishes it (QEG_RESPONSE_CACHE_MIN_USES, 2 by default)
                    // and the warm cells find every distinct request in the shared cache
                    sent.add(request);
                }
                if (options.cold() || engine.shared()) {
                    // the miss path (a shared replica's plain request may be a hit), under two cold keys
                    sent.add(coldVariant(request));
                    sent.add(coldVariant(request));
                }
                int recordedBefore = -1;
                for (int k = 0; k < sent.size(); k++) {
                    if (k == sent.size() - 1) {
                        recordedBefore = engine.responder().recorded();
                    }
                    Http.Raw raw = http.send(sent.get(k));
                    if (!raw.ok()) {
                        CellFailure f = CellFailure.of(sent.get(k), raw);
                        refused.put(w.name(), new CellFailure(f.status(), (f.status() == Status.UNSUPPORTED
                                ? "unsupported on this backend: " : "") + f.getMessage()));
                        say("%s: workload %s: %s", name, w.name(), raw.error());
                        break;
                    }
                    Optional<String> diff = Answers.difference(want.get(i), Answers.canonical(w.shape(), raw.json()));
                    if (diff.isPresent()) {
                        notes.computeIfAbsent(name, k2 -> new ArrayList<>()).add("while recording, " + w.name()
                                + " answered wrong at " + diff.get() + " for " + sent.get(k));
                    }
                }
                if (options.cold() && sent.size() > 1 && !refused.containsKey(w.name())
                        && engine.responder().recorded() > recordedBefore) {
                    // the second cold key made Qdrant calls the first had not: the cells' cold keys would too
                    refused.put(w.name(), new CellFailure(Status.UNSUPPORTED, "unsupported in cold cells on the canned "
                            + "Qdrant: the gateway's Qdrant calls for " + request + " change with the cold key "
                            + "(recorded answers cannot serve new keys)"));
                    say("%s: workload %s: %s", name, w.name(), refused.get(w.name()).getMessage());
                }
            }
        }
    }

    private List<Results.Trial> trial(RunningEngine engine, int trial, int position) {
        List<Results.Trial> rows = new ArrayList<>();
        try (Http http = Http.to(engine.urls())) {
            for (Workload w : workloads) {
                rows.addAll(workload(engine, http, w, trial, position));
            }
        }
        return rows;
    }

    /** One workload of one trial on one engine: the ingest once, every other workload at each concurrency level. */
    private List<Results.Trial> workload(RunningEngine engine, Http http, Workload w, int trial, int position) {
        String name = engine.spec().name();
        if (w.kind() == Workload.Kind.INGEST && engine instanceof CannedEngine) {
            return List.of(new Results.Trial(trial, position, name, w.name(), 1, Status.SKIPPED, CANNED_WRITES, 0,
                    null, null, null, null));
        }
        if (w.kind() == Workload.Kind.INGEST) {
            return List.of(timedIngest(engine, http, name, trial, position, w));
        }
        List<Results.Trial> rows = new ArrayList<>();
        for (int clients : options.clients()) {
            Results.Trial row = cell(engine, http, w, clients, trial, position);
            say("trial %d %-14s %-20s %d client(s): %s", trial, name, w.name(), clients, row.status() == Status.VALID
                    ? String.format(Locale.ROOT, "p50 %.2f ms, p95 %.2f ms, %.0f req/s", row.p50Ms(), row.p95Ms(),
                    row.throughput()) : row.status() + " - " + row.detail());
            rows.add(row);
        }
        return rows;
    }

    private Results.Trial timedIngest(RunningEngine engine, Http http, String name, int trial, int position,
                                      Workload w) {
        try {
            Ingested ingested = ingest(http, name, cpu(engine));
            long ns = ingested.nanos();
            double docsPerSecond = corpus.size() / (ns / 1e9);
            Double cpuMsPerDoc = ingested.cpuNanos() < 0 ? null : ingested.cpuNanos() / 1e6 / corpus.size();
            say("trial %d %-14s %-20s %,.0f docs/s (%.2f s%s)", trial, name, w.name(), docsPerSecond, ns / 1e9,
                    cpuMsPerDoc == null ? "" : String.format(Locale.ROOT, ", %.1f µs CPU per doc", cpuMsPerDoc * 1000));
            Settle.Outcome settled = Settle.await(cpu(engine), Runner::sleep);
            if (settled.waitedMillis() > 0) {
                say("trial %d %-14s %s %.1f s after the ingest", trial, name,
                        settled.quiet() ? "quiet" : "still busy", settled.waitedMillis() / 1e3);
            }
            return new Results.Trial(trial, position, name, w.name(), 1, Status.VALID, "", corpus.size(), ns / 1e6,
                    ns / 1e6, docsPerSecond, docsPerSecond).withCpu(cpuMsPerDoc);
        } catch (CellFailure f) {
            return new Results.Trial(trial, position, name, w.name(), 1, f.status(), f.getMessage(), 0, null, null,
                    null, null);
        }
    }

    /**
     * The bulk ingest's warm-up: one untimed load of the corpus, so that every engine's timed ingests come after the
     * same number of earlier ones (the reference engine's warm-up is the load its expected answers are computed on,
     * the canned gateway's the load it records). A failure here is left to the timed trials to report.
     */
    private void warmUpIngest(RunningEngine engine) {
        String name = engine.spec().name();
        try (Http http = new Http(engine.url())) {
            long ns = ingest(http, name).nanos();
            say("%s: warm-up ingest (untimed) %.2f s", name, ns / 1e9);
        } catch (CellFailure | IllegalStateException | java.io.UncheckedIOException e) {
            say("%s: warm-up ingest failed: %s", name, e.getMessage());
        }
    }

    /**
     * An ingest's time from the first {@code _bulk} until {@code _count} sees every document, and the engine's CPU
     * time over the same span (-1 when unknown).
     */
    private record Ingested(long nanos, long cpuNanos) {
    }

    /** {@link #ingest(Http, String, java.util.function.LongSupplier)} without the engine's CPU time. */
    private Ingested ingest(Http http, String engine) {
        return ingest(http, engine, () -> -1);
    }

    /**
     * Re-creates the main index and bulk-loads the corpus, timed, reading {@code cpuNanos} (the engine's CPU time, -1
     * when unknown) at both ends. The vector index is loaded afterwards, untimed (or noted as refused).
     */
    private Ingested ingest(Http http, String engine, java.util.function.LongSupplier cpuNanos) {
        recreate(http, Corpus.INDEX, Corpus.mapping(options.requestCache(), options.titleAnalyzer()));
        mainBodies();
        long cpu0 = cpuNanos.getAsLong();
        long t0 = System.nanoTime();
        bulk(http, false);
        http.ok("POST", "/" + Corpus.INDEX + "/_refresh", null);
        long deadline = System.nanoTime() + 120_000_000_000L;
        long count = -1;
        while (System.nanoTime() < deadline) {
            count = http.ok("POST", "/" + Corpus.INDEX + "/_count", "{}").path("count").asLong();
            if (count == corpus.size()) {
                break;
            }
            sleep(10);
        }
        long ns = System.nanoTime() - t0;
        long cpu1 = cpuNanos.getAsLong();
        if (count != corpus.size()) {
            throw new CellFailure(Status.INVALID, "_count is " + count + " after ingest, expected " + corpus.size());
        }
        if (options.vectors()) {
            http.send("DELETE", "/" + Corpus.VECTOR_INDEX, null, null);
            Http.Raw created = http.send("PUT", "/" + Corpus.VECTOR_INDEX, Corpus.vectorMapping(cosineVectors,
                    flatVectorEngines.contains(engine)),
                    "application/json");
            if (created.ok()) {
                bulk(http, true);
                http.ok("POST", "/" + Corpus.VECTOR_INDEX + "/_refresh", null);
            } else if (vectorsRefused.putIfAbsent(engine, created.error()) == null) {
                say("%s: the vector index was refused (%s); its kNN cells will show as unsupported", engine,
                        created.error());
                notes.computeIfAbsent(engine, k -> new ArrayList<>()).add("vector index refused: " + created.error());
            }
        }
        return new Ingested(ns, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0);
    }

    private void bulk(Http http, boolean vectors) {
        BulkBodies bodies = vectors ? vectorBodies() : mainBodies();
        for (int n = 0; n < bodies.count(); n++) {
            Http.Raw raw = http.sendBytes("POST", "/_bulk", bodies.body(n), "application/x-ndjson");
            if (!raw.ok()) {
                throw new CellFailure(Status.ERROR, "_bulk answered " + raw.error());
            }
            if (BulkBodies.reportsErrors(raw.body())) {
                String text = new String(raw.body(), java.nio.charset.StandardCharsets.UTF_8);
                throw new CellFailure(Status.INVALID, "_bulk reported errors: "
                        + text.substring(0, Math.min(500, text.length())));
            }
        }
    }

    private BulkBodies mainBodies() {
        if (mainBodies == null) {
            mainBodies = new BulkBodies(corpus, BULK_BATCH, false);
        }
        return mainBodies;
    }

    private BulkBodies vectorBodies() {
        if (vectorBodies == null) {
            vectorBodies = new BulkBodies(corpus, BULK_BATCH, true, cosineVectors);
        }
        return vectorBodies;
    }

    private static void recreate(Http http, String index, String mapping) {
        Http.Raw deleted = http.send("DELETE", "/" + index, null, null);
        if (!deleted.ok() && deleted.status() != 404) {
            throw new IllegalStateException("DELETE /" + index + " answered " + deleted.error());
        }
        http.ok("PUT", "/" + index, mapping);
    }

    private Results.Trial cell(RunningEngine engine, Http http, Workload w, int clients, int trial, int position) {
        String name = engine.spec().name();
        if (refusedByReference.containsKey(w.name())) {
            return row(trial, position, name, w, clients, Status.UNSUPPORTED, refusedByReference.get(w.name()), null);
        }
        if (Workloads.usesVectors(w) && vectorsRefused.containsKey(name)) {
            return row(trial, position, name, w, clients, Status.UNSUPPORTED,
                    "its vector index was refused: " + vectorsRefused.get(name), null);
        }
        if (engine instanceof CannedEngine canned) {
            return cannedCell(canned, w, clients, trial, position);
        }
        Measurement.Step step = switch (w.kind()) {
            // Elasticsearch is measured on its own request where it cannot run the workload's (its exact kNN)
            case READ -> readStep(flatVectorEngines.contains(name) ? w.asReference() : w, expected.get(w.name()),
                    options.cold());
            case WRITE_THEN_READ, WRITE_THEN_COUNT -> {
                recreate(http, WRITE_INDEX, Corpus.mapping(options.requestCache(), options.titleAnalyzer()));
                yield w.kind() == Workload.Kind.WRITE_THEN_READ ? Runner::writeThenRead : Runner::writeThenCount;
            }
            case SCROLL -> new ScrollWalk(corpus);
            case INGEST -> throw new IllegalArgumentException("ingest is not a cell");
        };
        boolean shared = engine.spec().kind().sharedMode();
        SharedCacheCounts before = shared ? SharedCacheCounts.scrape(engine.urls()) : null;
        Measurement.Outcome outcome = Measurement.run(engine.urls(), clients, options.warmup(), options.requests(),
                step, cpu(engine));
        if (shared) {
            Optional<String> bypassed = sharedCacheUse(engine, w, clients, trial, before, outcome);
            if (bypassed.isPresent()) {
                return row(trial, position, name, w, clients, Status.ERROR, bypassed.get(), null);
            }
        }
        perRequest.add(name, w.name(), clients, outcome);
        return row(trial, position, name, w, clients, outcome.status(), outcome.detail(),
                outcome.status() == Status.VALID ? outcome : null);
    }

    /**
     * Shared mode: the shared response cache's outcomes over a cell (since {@code before}), kept for the report. Returns
     * why the cell is an error when it is cold, its requests are searches and not one reached the shared cache.
     */
    private Optional<String> sharedCacheUse(RunningEngine engine, Workload w, int clients, int trial,
                                            SharedCacheCounts before, Measurement.Outcome outcome) {
        String name = engine.spec().name();
        SharedCacheCounts use = SharedCacheCounts.settled(engine.urls()).minus(before);
        say("trial %d %-14s %-20s %d client(s): shared response cache %s", trial, name, w.name(), clients, use);
        sharedCache.computeIfAbsent(name, k -> new java.util.TreeMap<>()).merge(w.name(), use, SharedCacheCounts::plus);
        if (options.cold() && outcome.status() == Status.VALID && w.kind() == Workload.Kind.READ
                && w.requests().stream().allMatch(r -> r.path().contains("/_search")) && use.misses() == 0) {
            // a cold search that never reached the shared cache measures nothing the cold cell is for
            return Optional.of("cold searches bypassed the shared response cache (no miss counted): " + use);
        }
        return Optional.empty();
    }

    /**
     * A read workload on the gateway against the canned Qdrant: timed and checked like any other cell, with the
     * gateway's backend metrics (summed over shared mode's replicas) read before and after; a call the responder had
     * not recorded makes it an error. With {@code --cold} every request is a {@link #coldVariant}; shared mode's cells
     * count the shared response cache's outcomes as {@link #cell} does.
     */
    private Results.Trial cannedCell(CannedEngine engine, Workload w, int clients, int trial, int position) {
        String name = engine.spec().name();
        if (w.kind() != Workload.Kind.READ && w.kind() != Workload.Kind.SCROLL) {
            return row(trial, position, name, w, clients, Status.SKIPPED, CANNED_WRITES, null);
        }
        CellFailure refused = cannedRefused.getOrDefault(name, Map.of()).get(w.name());
        if (refused != null) {
            return row(trial, position, name, w, clients, refused.status(), refused.getMessage(), null);
        }
        Measurement.Step read = w.kind() == Workload.Kind.SCROLL ? new ScrollWalk(corpus)
                : readStep(w, expected.get(w.name()), options.cold());
        java.util.concurrent.atomic.AtomicLong steps = new java.util.concurrent.atomic.AtomicLong();
        Measurement.Step counted = new Measurement.Step() {
            @Override
            public long run(Http h, int client, int iteration) {
                steps.incrementAndGet();
                return read.run(h, client, iteration);
            }

            @Override
            public int key(int client, int iteration) {
                return read.key(client, iteration);
            }
        };
        int missesBefore = engine.responder().missCount();
        boolean cacheCounted = engine.spec().kind().countsSharedCache();
        SharedCacheCounts cacheBefore = cacheCounted ? SharedCacheCounts.scrape(engine.urls()) : null;
        GatewayMetrics before = GatewayMetrics.scrape(engine.urls());
        Measurement.Outcome outcome = Measurement.run(engine.urls(), clients, options.warmup(), options.requests(),
                counted, cpu(engine));
        GatewayMetrics after = GatewayMetrics.scrape(engine.urls());
        Optional<String> bypassed = cacheCounted
                ? sharedCacheUse(engine, w, clients, trial, cacheBefore, outcome) : Optional.empty();
        List<String> misses = engine.responder().misses();
        if (misses.size() > missesBefore) {
            return row(trial, position, name, w, clients, Status.ERROR, (misses.size() - missesBefore)
                    + " Qdrant call(s) had no recorded answer, first: " + misses.get(missesBefore)
                    + (outcome.status() == Status.VALID ? "" : "; the cell: " + outcome.detail()), null);
        }
        if (bypassed.isPresent()) {
            return row(trial, position, name, w, clients, Status.ERROR, bypassed.get(), null);
        }
        Results.Trial row = row(trial, position, name, w, clients, outcome.status(), outcome.detail(),
                outcome.status() == Status.VALID ? outcome : null);
        if (outcome.status() != Status.VALID) {
            return row;
        }
        perRequest.add(name, w.name(), clients, outcome);
        Results.BackendUse use = after.perRequestSince(before, steps.get());
        say("trial %d %-14s %-20s %d client(s): gateway %.3f ms/request (own %.3f, own p50 %s ms, Qdrant %.3f),"
                + " %.2f Qdrant calls, %,.0f bytes read, %,.0f sent per request", trial, name, w.name(), clients,
                use.gatewayMsPerRequest(), use.ownMsPerRequest(),
                use.ownP50Ms() == null ? "–" : String.format(java.util.Locale.ROOT, "%.3f", use.ownP50Ms()),
                use.backendMsPerRequest(),
                use.backendCallsPerRequest(), use.bytesReadPerRequest(), use.bytesSentPerRequest());
        return new Results.Trial(row.trial(), row.position(), row.engine(), row.workload(), row.clients(),
                row.status(), row.detail(), row.requests(), row.p50Ms(), row.p95Ms(), row.throughput(),
                row.docsPerSecond(), use, row.cpuMsPerRequest());
    }

    private static Results.Trial row(int trial, int position, String engine, Workload w, int clients, Status status,
                                     String detail, Measurement.Outcome o) {
        return new Results.Trial(trial, position, engine, w.name(), clients, status, detail,
                o == null ? 0 : o.latencies().length, o == null ? null : o.p(0.50), o == null ? null : o.p(0.95),
                o == null ? null : o.throughput(), null, null, o == null ? null : o.cpuMsPerRequest());
    }

    /** The engine process's CPU time in ns, -1 when the runner did not start it or cannot read it. */
    private static java.util.function.LongSupplier cpu(RunningEngine engine) {
        List<Long> pids = engine.cpuPids();
        return () -> {
            if (pids.isEmpty()) {
                return -1;
            }
            long sum = 0;
            for (long pid : pids) { // shared mode: every replica's
                long ns = ProcessCpu.nanos(pid).orElse(-1);
                if (ns < 0) {
                    return -1;
                }
                sum += ns;
            }
            return sum;
        };
    }

    /** The client's request is one of the fixed set (clients interleave through it); its answer must be expected. */
    static Measurement.Step readStep(Workload w, List<JsonNode> expected) {
        return readStep(w, expected, false);
    }

    /** Cold requests: each gets a new cache key and the same answer ({@link #coldVariant}). */
    private static final java.util.concurrent.atomic.AtomicLong COLD = new java.util.concurrent.atomic.AtomicLong();
    private static final String COLD_RUN = Long.toString(System.nanoTime() & 0xffffffL, 36);

    /**
     * {@code request} under a cache key never used before, with the same answer: a search body without a
     * {@code _source} section gets the URL parameter {@code _source_excludes} naming a field that does not exist
     * ({@code cold_<run>_<n>}): it changes no answer (no document has the field; a {@code size: 0} search has no
     * sources) and is part of the normalised request the gateway's shared cache keys on, so the lookup misses and
     * the computed answer is published. Any other request gets a {@code preference} never sent before (a GET is not
     * cached by the gateway; the parameter changes no answer on one shard). Neither a {@code preference} alone (the
     * gateway leaves parameters that cannot change the answer out of the key) nor a search {@code timeout} (an answer
     * that may be cut short is never cached: the request would bypass the cache) makes a cold search.
     */
    static Request coldVariant(Request request) {
        long n = COLD.incrementAndGet();
        String token = "cold_" + COLD_RUN + "_" + n;
        String body = request.body();
        String param = body != null && body.startsWith("{") && !body.contains("\"_source\"")
                && request.path().contains("/_search") ? "_source_excludes=" : "preference=";
        String path = request.path() + (request.path().contains("?") ? "&" : "?") + param + token;
        return new Request(request.method(), path, body, request.contentType());
    }

    /** As {@link #readStep(Workload, List)}; {@code cold}: every request a {@link #coldVariant}. */
    static Measurement.Step readStep(Workload w, List<JsonNode> expected, boolean cold) {
        List<Request> requests = w.requests();
        return new Measurement.Step() {
            @Override
            public long run(Http http, int client, int iteration) {
                int index = key(client, iteration);
                Request request = cold ? coldVariant(requests.get(index)) : requests.get(index);
                long t0 = System.nanoTime();
                Http.Raw raw = http.send(request);
                long ns = System.nanoTime() - t0;
                if (!raw.ok()) {
                    throw CellFailure.of(request, raw);
                }
                Optional<String> diff = Answers.difference(expected.get(index),
                        Answers.canonical(w.shape(), raw.json()));
                if (diff.isPresent()) {
                    throw new CellFailure(Status.INVALID, "wrong answer at " + diff.get() + " for " + request);
                }
                return ns;
            }

            @Override
            public int key(int client, int iteration) {
                return (iteration * 31 + client * 7) % requests.size();
            }
        };
    }

    private static ObjectNode writtenDoc(int client, int iteration) {
        ObjectNode doc = Json.object();
        doc.put("rank", iteration);
        doc.put("price", 1 + (iteration * 37) % 1000);
        doc.put("category", "w-" + client);
        doc.put("title", "written " + client + " " + iteration);
        doc.put("description", "a document written by client " + client);
        doc.put("available", iteration % 2 == 0);
        doc.put("created", "2024-01-01");
        return doc;
    }

    private static long writeThenRead(Http http, int client, int iteration) {
        ObjectNode doc = writtenDoc(client, iteration);
        String id = "c" + client + "-" + iteration;
        Request put = Request.json("PUT", "/" + WRITE_INDEX + "/_doc/" + id, Json.compact(doc));
        Request get = Request.get("/" + WRITE_INDEX + "/_doc/" + id);
        long t0 = System.nanoTime();
        Http.Raw written = http.send(put);
        Http.Raw read = written.ok() ? http.send(get) : written;
        long ns = System.nanoTime() - t0;
        if (!written.ok()) {
            throw CellFailure.of(put, written);
        }
        if (!read.ok()) {
            throw CellFailure.of(get, read);
        }
        ObjectNode want = Json.object();
        want.put("found", true);
        want.put("_id", id);
        want.set("_source", doc);
        Answers.difference(want, Answers.canonical(Answers.Shape.DOCUMENT, read.json())).ifPresent(d -> {
            throw new CellFailure(Status.INVALID, "wrong answer at " + d + " for " + get + " after " + put);
        });
        return ns;
    }

    private static long writeThenCount(Http http, int client, int iteration) {
        String id = "c" + client + "-" + iteration;
        Request put = Request.json("PUT", "/" + WRITE_INDEX + "/_doc/" + id + "?refresh=true",
                Json.compact(writtenDoc(client, iteration)));
        Request count = Request.json("POST", "/" + WRITE_INDEX + "/_count",
                "{\"query\":{\"term\":{\"category\":\"w-" + client + "\"}}}");
        long t0 = System.nanoTime();
        Http.Raw written = http.send(put);
        Http.Raw counted = written.ok() ? http.send(count) : written;
        long ns = System.nanoTime() - t0;
        if (!written.ok()) {
            throw CellFailure.of(put, written);
        }
        if (!counted.ok()) {
            throw CellFailure.of(count, counted);
        }
        ObjectNode want = Json.object();
        want.put("count", iteration + 1);
        Answers.difference(want, Answers.canonical(Answers.Shape.COUNT, counted.json())).ifPresent(d -> {
            throw new CellFailure(Status.INVALID, "wrong answer at " + d + " for " + count + " after " + put);
        });
        return ns;
    }

    /**
     * Every engine idle for at least {@link #REST_MILLIS} before the resident sets are read: the run's last engine has just
     * finished its cells while the first one of the final trial has been idle for minutes, and an engine that gives
     * memory back when idle (the gateway's periodic collection) would otherwise be measured at rest or under load
     * depending on the shuffled order. The smoke profile rests one second.
     */
    private void rest() {
        long millis = options.smoke() ? 1_000 : REST_MILLIS;
        say("resting %d s before reading every engine's resident set", millis / 1000);
        sleep(millis);
    }

    /** The idle time before the resident sets are read at the end of the run ({@link #rest}). */
    static final long REST_MILLIS = 20_000;

    private static java.util.OptionalLong rssKib(RunningEngine e, String key) {
        return e.pid().isPresent() ? ChildJvm.procStatusKib(e.pid().getAsLong(), key) : java.util.OptionalLong.empty();
    }

    private Results.EngineFacts facts(RunningEngine e, Long rssAfterLoadKib) {
        String version;
        try (Http http = new Http(e.url())) {
            JsonNode root = http.ok("GET", "/", null).path("version");
            version = root.path("number").asText() + (root.has("distribution")
                    ? " (" + root.path("distribution").asText() + ")" : "");
        } catch (RuntimeException ex) {
            version = "unknown (" + ex.getMessage() + ")";
        }
        Long pid = e.pid().isPresent() ? e.pid().getAsLong() : null;
        Long rss = pid == null ? null : boxed(ChildJvm.procStatusKib(pid, "VmRSS"));
        Long peak = pid == null ? null : boxed(ChildJvm.procStatusKib(pid, "VmHWM"));
        List<String> engineNotes = new ArrayList<>();
        if (e.spec().kind() == EngineSpec.Kind.GATEWAY) {
            engineNotes.add("embedded store (Lucene documents, SQLite catalog), " + ChildEngine.gatewaySettings()
                    + ", heap " + options.heap());
        } else if (e instanceof CannedEngine c) {
            engineNotes.add(c.describe() + ", " + ChildEngine.gatewaySettings() + ", heap " + options.heap()
                    + (c.shared() ? " per replica" : ""));
            sharedCache.getOrDefault(e.spec().name(), Map.of()).forEach((workload, use) -> engineNotes.add(
                    "shared response cache, " + workload + " (all cells, warm-up included): " + use));
        } else if (e instanceof QdrantProcessEngine q) {
            engineNotes.add(q.describe() + ", " + ChildEngine.gatewaySettings() + ", heap " + options.heap()
                    + " per replica");
            sharedCache.getOrDefault(e.spec().name(), Map.of()).forEach((workload, use) -> engineNotes.add(
                    "shared response cache, " + workload + " (all cells, warm-up included): " + use));
        } else if (e.spec().kind() != EngineSpec.Kind.URL) {
            engineNotes.add("single node, oracle launcher, heap " + options.heap());
        }
        engineNotes.addAll(notes.getOrDefault(e.spec().name(), List.of()));
        return new Results.EngineFacts(e.spec().name(), e.spec().kind().name().toLowerCase(Locale.ROOT),
                e.spec().isNative(), e.url().toString(), version, pid, e.startupMillis().orElse(null), rssAfterLoadKib,
                rss, peak,
                List.copyOf(engineNotes));
    }

    private static Long boxed(java.util.OptionalLong v) {
        return v.isPresent() ? v.getAsLong() : null;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void say(String format, Object... args) {
        log.println("bench: " + String.format(Locale.ROOT, format, args));
        log.flush();
    }
}
