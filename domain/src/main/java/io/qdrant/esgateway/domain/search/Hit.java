package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;

/**
 * One search hit as a backend returns it: the concrete index, the id, the score ({@link Float#NaN} when the search
 * does not score), the sort values exactly as Elasticsearch renders them in {@code hits.hits[].sort} (empty without
 * a sort), the full {@code _source} (filtered later), and the version triple.
 */
public record Hit(String index, String id, float score, List<JsonValue> sort, JsonObject source,
                  DocumentVersion version) {
    public Hit {
        sort = List.copyOf(sort);
    }

    public boolean scored() {
        return !Float.isNaN(score);
    }
}
