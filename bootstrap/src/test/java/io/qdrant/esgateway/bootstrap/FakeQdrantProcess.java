package io.qdrant.esgateway.bootstrap;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;

/**
 * The fake Qdrant as a process of its own, shared by gateway processes: prints {@code fake-qdrant on PORT} and
 * serves until its standard input closes (its parent ended) or it is killed.
 */
public final class FakeQdrantProcess {
    private FakeQdrantProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (FakeQdrant qdrant = new FakeQdrant()) {
            System.out.println("fake-qdrant on " + qdrant.uri().getPort());
            System.out.flush();
            while (System.in.read() >= 0) {
                // parent alive
            }
        }
    }
}
