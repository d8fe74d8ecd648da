package io.qdrant.esgateway.compat.harness;

import java.util.Arrays;
import java.util.Locale;

/** The reference engines the gateway is compared with. Elasticsearch 8.15 is the specification. */
public enum Engine {
    ELASTICSEARCH("elasticsearch", "Elasticsearch 8.15.0", "io.qdrant.esgateway.oracle.elasticsearch.ElasticsearchOracle"),
    OPENSEARCH("opensearch", "OpenSearch 3.9.0", "io.qdrant.esgateway.oracle.opensearch.OpenSearchOracle");

    private final String id;
    private final String displayName;
    private final String mainClass;

    Engine(String id, String displayName, String mainClass) {
        this.id = id;
        this.displayName = displayName;
        this.mainClass = mainClass;
    }

    /** The name used in scenario files, the known-differences file and {@code -Doracle.engines}. */
    public String id() {
        return id;
    }

    public String displayName() {
        return displayName;
    }

    String mainClass() {
        return mainClass;
    }

    public static Engine byId(String id) {
        return Arrays.stream(values()).filter(e -> e.id.equals(id.trim().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown engine [" + id + "]; known: elasticsearch, "
                        + "opensearch"));
    }
}
