package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The engine of the gateway-overhead mode: the packaged gateway (a child JVM, as {@link ChildEngine}) with
 * {@code --backend qdrant --qdrant-url} pointing at a {@link CannedQdrant} in this JVM, which first records the
 * answers of a {@link FakeQdrant} (spec-checked, in memory) and, after {@link #replay()}, answers from them alone.
 * Closing stops all three.
 */
public final class CannedEngine implements RunningEngine {
    private final ChildEngine gateway;
    private final CannedQdrant responder;
    private FakeQdrant fake;

    private CannedEngine(ChildEngine gateway, CannedQdrant responder, FakeQdrant fake) {
        this.gateway = gateway;
        this.responder = responder;
        this.fake = fake;
    }

    public static CannedEngine start(EngineSpec spec, Path root, String heap, Path logDir) {
        CannedQdrant.noDelay();
        FakeQdrant fake = new FakeQdrant();
        CannedQdrant responder = new CannedQdrant(fake.uri());
        try {
            ChildEngine gateway = ChildEngine.start(spec, root, heap, logDir,
                    List.of("--backend", "qdrant", "--qdrant-url", responder.uri().toString()));
            return new CannedEngine(gateway, responder, fake);
        } catch (RuntimeException | Error e) {
            responder.close();
            fake.close();
            throw e;
        }
    }

    public CannedQdrant responder() {
        return responder;
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
        return gateway.spec();
    }

    @Override
    public URI url() {
        return gateway.url();
    }

    @Override
    public OptionalLong pid() {
        return gateway.pid();
    }

    @Override
    public Optional<Long> startupMillis() {
        return gateway.startupMillis();
    }

    @Override
    public synchronized void close() {
        gateway.close();
        responder.close();
        if (fake != null) {
            fake.close();
            fake = null;
        }
    }
}
