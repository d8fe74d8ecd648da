package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreContract;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The document store contract against a real Qdrant — off by default, on when {@code QEG_QDRANT_URL} is set
 * (with {@code QEG_QDRANT_API_KEY} when the server needs one):
 * <pre>QEG_QDRANT_URL=http://127.0.0.1:6333 mvn -B -o verify -pl adapters-qdrant -am -DskipITs \
 *     -Dtest='QdrantLive*' -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * Each test uses collections under its own random prefix ({@code qegtest-<random>-}) and deletes them afterwards;
 * other collections on the server are never touched. CI cannot run it (no Qdrant there).
 */
@EnabledIfEnvironmentVariable(named = "QEG_QDRANT_URL", matches = ".+")
class QdrantLiveContractTest extends DocumentStoreContract {
    private QdrantHttp http;
    private String prefix;

    @Override
    protected DocumentStore newStore() {
        prefix = "qegtest-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        QdrantStores.Settings settings = new QdrantStores.Settings(URI.create(System.getenv("QEG_QDRANT_URL")),
                Optional.ofNullable(System.getenv("QEG_QDRANT_API_KEY")), Duration.ofSeconds(5),
                Duration.ofSeconds(60), prefix);
        http = new QdrantHttp(settings);
        return new QdrantDocumentStore(new QdrantHttp(settings));
    }

    @AfterEach
    void dropThisTestsCollections() {
        JsonNode collections = http.call("GET", "/collections", Map.of(), null, true, "list collections");
        for (JsonNode c : collections.path("collections")) {
            String name = c.path("name").asText();
            if (name.startsWith(prefix)) {
                http.call("DELETE", "/collections/" + QdrantHttp.segment(name), Map.of(), null, false,
                        "delete a test collection");
            }
        }
        http.close();
    }
}
