package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The engines over the runner's {@link CannedQdrant}, which first records the answers of a {@link FakeQdrant}
 * (spec-checked, in memory, in this JVM) and, after {@link #replay()}, answers from them alone: {@code
 * gateway-qdrant-canned} (the gateway-overhead mode), one packaged gateway (a child JVM, as {@link ChildEngine}) with
 * {@code --backend qdrant --qdrant-url} pointing at the responder and no in-process request cache; and shared mode over
 * it ({@code gateway-shared-on-canned}, {@code gateway-shared-coordinate-canned}): gateway replicas ({@code
 * --replicas}, two by default), each the packaged jar in its own JVM, with the Redis catalog and the shared response
 * cache on one real redis-server ({@code QEG_CATALOG=redis}, {@code QEG_RESPONSE_CACHE} on or coordinate), over that
 * one responder. The runner's clients take turns over the replicas ({@link #urls()}). Closing stops every process and
 * the responder.
 */
public final class CannedEngine implements RunningEngine {
    private final EngineSpec spec;
    private final List<ChildEngine> replicas;
    private final CannedQdrant responder;
    private final ServerProcess redis;
    private FakeQdrant fake;

    private CannedEngine(EngineSpec spec, List<ChildEngine> replicas, CannedQdrant responder, ServerProcess redis,
                         FakeQdrant fake) {
        this.spec = spec;
        this.replicas = replicas;
        this.responder = responder;
        this.redis = redis;
        this.fake = fake;
    }

    /** Whether {@code kind} is one of the engines this class starts. */
    static boolean starts(EngineSpec.Kind kind) {
        return kind == EngineSpec.Kind.GATEWAY_QDRANT_CANNED || kind == EngineSpec.Kind.GATEWAY_SHARED_ON_CANNED
                || kind == EngineSpec.Kind.GATEWAY_SHARED_COORDINATE_CANNED
                || kind == EngineSpec.Kind.GATEWAY_SHARED_OFF_CANNED;
    }

    public static CannedEngine start(EngineSpec spec, Path root, String heap, Path logDir,
                                     int replicaCount) {
        if (!starts(spec.kind())) {
            throw new IllegalArgumentException("not an engine over the canned Qdrant: " + spec);
        }
        CannedQdrant.noDelay();
        FakeQdrant fake = new FakeQdrant();
        CannedQdrant responder = null;
        ServerProcess redis = null;
        List<ChildEngine> replicas = new ArrayList<>();
        try {
            responder = new CannedQdrant(fake.uri());
            List<String> args = List.of("--backend", "qdrant", "--qdrant-url", responder.uri().toString());
            if (spec.kind().sharedMode()) {
                redis = ServerProcess.redis(logDir.resolve(spec.name() + "-redis.log"));
                replicas.addAll(ChildEngine.startReplicas(spec, root, heap, logDir, args, redis, replicaCount));
            } else {
                // ChildEngine turns the in-process request cache off for this kind: every answer is computed
                replicas.add(ChildEngine.start(spec, root, heap, logDir, args));
            }
            return new CannedEngine(spec, List.copyOf(replicas), responder, redis, fake);
        } catch (RuntimeException | Error e) {
            replicas.forEach(ChildEngine::close);
            if (redis != null) {
                redis.close();
            }
            if (responder != null) {
                responder.close();
            }
            fake.close();
            throw e;
        }
    }

    public CannedQdrant responder() {
        return responder;
    }

    /** Whether this is shared mode: several replicas, the shared response cache's counts in their metrics. */
    boolean shared() {
        return spec.kind().sharedMode();
    }

    /** What the report says of the engine's set-up. */
    String describe() {
        return shared()
                ? replicas.size() + " gateway replicas (Qdrant adapter, Redis catalog, shared response cache "
                        + spec.kind().cacheMode() + ", pids " + cpuPids() + ") over one canned Qdrant responder in the "
                        + "runner's JVM and one redis-server (pid " + redis.pid() + "); clients alternate between the "
                        + "replicas"
                : "Qdrant adapter (SQLite catalog, request cache off: every answer computed) against the canned Qdrant "
                        + "responder in the runner's JVM";
    }

    /**
     * Ends the recording: the responder answers from what it kept, the stand-in is stopped. Returns the stand-in's
     * OpenAPI violations (bodies that broke Qdrant's {@code openapi.json}); the run notes them.
     */
    public synchronized List<String> replay() {
        responder.replay();
        List<String> violations = fake == null ? List.of() : List.copyOf(fake.violations);
        if (fake != null) {
            fake.close();
            fake = null;
        }
        return violations;
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
        responder.close();
        if (fake != null) {
            fake.close();
            fake = null;
        }
    }
}
