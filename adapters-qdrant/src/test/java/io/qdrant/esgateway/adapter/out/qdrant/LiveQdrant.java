package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * The real Qdrant the live suites (JUnit tag {@code live}) run against: the server {@code QEG_QDRANT_URL} names, with
 * {@code QEG_QDRANT_API_KEY} when it needs one — without the URL a live suite fails, it never skips — and a random
 * collection prefix ({@code qegtest-<random>-}) per suite, whose collections {@link #dropCollections} deletes; other
 * collections on the server are never touched.
 */
final class LiveQdrant {
    private LiveQdrant() {
    }

    /** Settings for the live server, under a new random collection prefix. */
    static QdrantStores.Settings settings() {
        String url = System.getenv("QEG_QDRANT_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("the live suite needs QEG_QDRANT_URL (e.g. http://127.0.0.1:6333)");
        }
        String prefix = "qegtest-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        return new QdrantStores.Settings(URI.create(url), Optional.ofNullable(System.getenv("QEG_QDRANT_API_KEY")),
                Duration.ofSeconds(5), Duration.ofSeconds(60), prefix);
    }

    /** Deletes the collections under {@code prefix} and closes {@code http} (nothing when the suite never started). */
    static void dropCollections(QdrantClient http, String prefix) {
        if (http == null) {
            return;
        }
        try {
            JsonNode collections = http.call("GET", "/collections", Map.of(), null, true, "list collections");
            for (JsonNode c : collections.path("collections")) {
                String name = c.path("name").asText();
                if (name.startsWith(prefix)) {
                    http.call("DELETE", "/collections/" + QdrantClient.segment(name), Map.of(), null, false,
                            "delete a test collection");
                }
            }
        } finally {
            http.close();
        }
    }
}
