package io.qdrant.esgateway.bootstrap;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Two running gateways for a test that runs each case on both backends: one on the embedded store and one on Qdrant
 * (the spec-checked fake), each with its own data directory.
 */
final class BothBackends implements AutoCloseable {
    private final RunningGateway lucene;
    private final FakeQdrant qdrant;
    private final RunningGateway onQdrant;

    private BothBackends(RunningGateway lucene, FakeQdrant qdrant, RunningGateway onQdrant) {
        this.lucene = lucene;
        this.qdrant = qdrant;
        this.onQdrant = onQdrant;
    }

    static BothBackends start(Path luceneData, Path qdrantData) {
        RunningGateway lucene = RunningGateway.start(luceneData);
        FakeQdrant qdrant = new FakeQdrant();
        return new BothBackends(lucene, qdrant,
                RunningGateway.start(qdrantData, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()));
    }

    /** The backends' names, as a parameterized test's source. */
    static Stream<String> names() {
        return Stream.of("lucene", "qdrant");
    }

    /** The client of the gateway on the backend named {@code lucene} or {@code qdrant}. */
    EsClient client(String backend) {
        return backend.equals("lucene") ? lucene.client : onQdrant.client;
    }

    @Override
    public void close() {
        lucene.close();
        onQdrant.close();
        qdrant.close();
    }
}
