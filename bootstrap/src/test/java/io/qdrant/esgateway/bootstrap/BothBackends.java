package io.qdrant.esgateway.bootstrap;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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
        return start(luceneData, qdrantData, new String[0]);
    }

    /** As {@link #start(Path, Path)}, both with the extra environment {@code extraEnv} (name, value, …). */
    static BothBackends start(Path luceneData, Path qdrantData, String... extraEnv) {
        RunningGateway lucene = RunningGateway.start(luceneData, extraEnv);
        FakeQdrant qdrant = new FakeQdrant();
        String[] env = java.util.Arrays.copyOf(extraEnv, extraEnv.length + 4);
        env[extraEnv.length] = "QEG_BACKEND";
        env[extraEnv.length + 1] = "qdrant";
        env[extraEnv.length + 2] = "QEG_QDRANT_URL";
        env[extraEnv.length + 3] = qdrant.uri().toString();
        return new BothBackends(lucene, qdrant, RunningGateway.start(qdrantData, env));
    }

    /**
     * Both gateways for one test class, as a JUnit extension ({@code @RegisterExtension static final}): started
     * before the class's first test and stopped after its last, in temporary data directories of their own.
     */
    static PerClass perClass() {
        return new PerClass();
    }

    /** See {@link #perClass()}. */
    static final class PerClass implements BeforeAllCallback, AfterAllCallback {
        private Path root;
        private BothBackends running;

        @Override
        public void beforeAll(ExtensionContext context) throws IOException {
            root = Files.createTempDirectory("qeg-both-backends-");
            running = start(Files.createDirectories(root.resolve("lucene")),
                    Files.createDirectories(root.resolve("qdrant")));
        }

        @Override
        public void afterAll(ExtensionContext context) throws IOException {
            try {
                running.close();
            } finally {
                try (Stream<Path> files = Files.walk(root)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }

        /** The client of the gateway on the backend named {@code lucene} or {@code qdrant}. */
        EsClient client(String backend) {
            return running.client(backend);
        }
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
