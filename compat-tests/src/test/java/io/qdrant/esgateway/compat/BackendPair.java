package io.qdrant.esgateway.compat;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A gateway on the embedded Lucene store and one with {@code QEG_BACKEND=qdrant} on the spec-checked
 * {@link FakeQdrant}, in one temporary directory, to compare the two backends without an oracle. Closing it stops
 * both gateways and the fake (each even when another fails to close) and deletes the directory.
 */
final class BackendPair implements AutoCloseable {
    /** The fake Qdrant the {@link #onQdrant} gateway stores in; its {@code violations} list what it was sent wrong. */
    final FakeQdrant qdrant;
    final GatewayForCompat onQdrant;
    final GatewayForCompat onLucene;
    private final Path dir;

    private BackendPair(FakeQdrant qdrant, GatewayForCompat onQdrant, GatewayForCompat onLucene, Path dir) {
        this.qdrant = qdrant;
        this.onQdrant = onQdrant;
        this.onLucene = onLucene;
        this.dir = dir;
    }

    /**
     * Starts the fake and both gateways in a new temporary directory named from {@code prefix}, each gateway with
     * {@code settings} (environment) besides its backend's own.
     */
    static BackendPair start(String prefix, Map<String, String> settings) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        FakeQdrant qdrant = null;
        GatewayForCompat onQdrant = null;
        try {
            qdrant = new FakeQdrant();
            Map<String, String> qdrantSettings = new HashMap<>(settings);
            qdrantSettings.put("QEG_BACKEND", "qdrant");
            qdrantSettings.put("QEG_QDRANT_URL", qdrant.uri().toString());
            onQdrant = GatewayForCompat.start(dir.resolve("qdrant"), qdrantSettings);
            GatewayForCompat onLucene = GatewayForCompat.start(dir.resolve("lucene"), settings);
            return new BackendPair(qdrant, onQdrant, onLucene, dir);
        } catch (Throwable t) {
            closeAll(dir, onQdrant, qdrant);
            throw t;
        }
    }

    @Override
    public void close() throws IOException {
        closeAll(dir, onQdrant, onLucene, qdrant);
    }

    private static void closeAll(Path dir, AutoCloseable... parts) throws IOException {
        for (AutoCloseable c : parts) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // closing the rest
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
