package io.qdrant.esgateway.bench;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The engines on the gateway's Qdrant adapter with the fake Qdrant as a process of its own ({@link FakeQdrantMain}):
 * {@code gateway-qdrant}, one gateway with its SQLite catalog and no request cache (the single-process Qdrant mode),
 * and shared mode ({@code gateway-shared-on}, {@code gateway-shared-coordinate}): gateway replicas ({@code --replicas},
 * two by default), each the packaged jar in its own JVM ({@link ChildEngine}), over that one Qdrant and one real
 * redis-server ({@code QEG_CATALOG=redis}, {@code QEG_RESPONSE_CACHE} on or coordinate). The runner's clients take
 * turns over the replicas ({@link #urls()}). Every process is started here and stopped by its PID when the engine
 * closes.
 */
public final class QdrantProcessEngine implements RunningEngine {
    private final EngineSpec spec;
    private final ServerProcess qdrant;
    private final ServerProcess redis;
    private final List<ChildEngine> replicas;

    private QdrantProcessEngine(EngineSpec spec, ServerProcess qdrant, ServerProcess redis,
                                List<ChildEngine> replicas) {
        this.spec = spec;
        this.qdrant = qdrant;
        this.redis = redis;
        this.replicas = replicas;
    }

    /** Whether {@code kind} is one of the engines this class starts. */
    static boolean starts(EngineSpec.Kind kind) {
        return kind == EngineSpec.Kind.GATEWAY_QDRANT || kind == EngineSpec.Kind.GATEWAY_SHARED_ON
                || kind == EngineSpec.Kind.GATEWAY_SHARED_COORDINATE;
    }

    public static QdrantProcessEngine start(EngineSpec spec, Path root, String heap, Path logDir,
                                     int replicaCount) {
        if (!starts(spec.kind())) {
            throw new IllegalArgumentException("not a Qdrant-process engine: " + spec);
        }
        ServerProcess qdrant = null;
        ServerProcess redis = null;
        List<ChildEngine> replicas = new ArrayList<>();
        try {
            qdrant = ServerProcess.fakeQdrant(logDir.resolve(spec.name() + "-qdrant.log"));
            List<String> args = List.of("--backend", "qdrant", "--qdrant-url", "http://127.0.0.1:" + qdrant.port());
            if (spec.kind().sharedMode()) {
                redis = ServerProcess.redis(logDir.resolve(spec.name() + "-redis.log"));
                replicas.addAll(ChildEngine.startReplicas(spec, root, heap, logDir, args, redis, replicaCount));
            } else {
                // the single-process comparison computes every answer: no in-process request cache
                replicas.add(ChildEngine.start(spec, root, heap, logDir, args, Map.of("QEG_REQUEST_CACHE_ENTRIES", "0"),
                        spec.name()));
            }
            return new QdrantProcessEngine(spec, qdrant, redis, List.copyOf(replicas));
        } catch (RuntimeException | Error e) {
            replicas.forEach(ChildEngine::close);
            if (redis != null) {
                redis.close();
            }
            if (qdrant != null) {
                qdrant.close();
            }
            throw e;
        }
    }

    /** What the report says of the engine's set-up. */
    String describe() {
        return spec.kind().sharedMode()
                ? replicas.size() + " gateway replicas (Qdrant adapter, Redis catalog, shared response cache "
                        + spec.kind().cacheMode() + ", pids " + cpuPids() + ") over one fake Qdrant process (pid "
                        + qdrant.pid() + ") and one redis-server (pid " + redis.pid() + "); clients alternate "
                        + "between the replicas"
                : "one gateway (Qdrant adapter, SQLite catalog, request cache off) over the fake Qdrant as a process"
                        + " (pid " + qdrant.pid() + ")";
    }

    @Override
    public EngineSpec spec() {
        return spec;
    }

    @Override
    public URI url() {
        return replicas.getFirst().url();
    }

    @Override
    public List<URI> urls() {
        return replicas.stream().map(ChildEngine::url).toList();
    }

    @Override
    public OptionalLong pid() {
        return replicas.getFirst().pid();
    }

    @Override
    public List<Long> cpuPids() {
        return replicas.stream().map(r -> r.pid().getAsLong()).toList();
    }

    @Override
    public Optional<Long> startupMillis() {
        return replicas.getFirst().startupMillis();
    }

    @Override
    public synchronized void close() {
        replicas.forEach(ChildEngine::close);
        if (redis != null) {
            redis.close();
        }
        qdrant.close();
    }
}
