package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;

/**
 * The fake Qdrant (adapters-qdrant's spec-checked, in-memory stand-in) as a process of its own, the backend of the
 * runner's Qdrant-mode and shared-mode engines: prints {@code fake-qdrant on PORT} and serves until its standard input
 * closes (the runner ended, even after a kill -9) or it is stopped by its PID.
 */
public final class FakeQdrantMain {
    private FakeQdrantMain() {
    }

    public static void main(String[] args) throws Exception {
        try (FakeQdrant qdrant = new FakeQdrant()) {
            System.out.println("fake-qdrant on " + qdrant.uri().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // the runner is alive
            }
        }
    }
}
