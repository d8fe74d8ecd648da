package io.qdrant.esgateway.bench;

import java.net.URI;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An engine that answers on {@link #url()}: a child JVM this runner started ({@link ChildEngine}) or one given by
 * URL. Closing stops only what this runner started.
 */
public interface RunningEngine extends AutoCloseable {
    EngineSpec spec();

    URI url();

    /** The PID of the engine's process, when this runner started it (RSS is read from it). */
    OptionalLong pid();

    /**
     * Every URL that answers for this engine; a client alternates its requests between them ({@link Http#to}). One
     * for every engine but shared mode's replicas.
     */
    default java.util.List<URI> urls() {
        return java.util.List.of(url());
    }

    /** The PIDs whose CPU time is the engine's (its gateway replicas); by default {@link #pid()}. */
    default java.util.List<Long> cpuPids() {
        return pid().isPresent() ? java.util.List.of(pid().getAsLong()) : java.util.List.of();
    }

    /** How long it took to answer after its process started, when this runner started it. */
    Optional<Long> startupMillis();

    @Override
    void close();

    /** An engine already running elsewhere: nothing to start or stop, no RSS. */
    static RunningEngine atUrl(EngineSpec spec) {
        URI url = spec.url().orElseThrow();
        return new RunningEngine() {
            @Override
            public EngineSpec spec() {
                return spec;
            }

            @Override
            public URI url() {
                return url;
            }

            @Override
            public OptionalLong pid() {
                return OptionalLong.empty();
            }

            @Override
            public Optional<Long> startupMillis() {
                return Optional.empty();
            }

            @Override
            public void close() {
                // not ours to stop
            }
        };
    }
}
