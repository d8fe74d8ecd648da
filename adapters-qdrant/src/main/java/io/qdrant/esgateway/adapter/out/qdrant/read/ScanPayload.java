package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.document.SourceFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;

/**
 * What a complete scan reads of each point: the payload keys to ask Qdrant for (the document id and the source
 * fields the scan needs) and the scanned document's source cut from an answered payload — one reading for the plain
 * scan ({@link FilterSearches#scan}) and the kNN scan ({@link QdrantKnnSearch#scan}).
 */
public record ScanPayload(List<String> include, SourceFilter projection) {

    public static ScanPayload of(Set<String> fields) {
        SourceFilter projection = fields.isEmpty() ? SourceFilter.NONE
                : new SourceFilter(true, List.copyOf(fields), List.of());
        List<String> include = new ArrayList<>();
        include.add(QdrantLayout.ID);
        include.addAll(QdrantJson.sourceIncludes(fields));
        return new ScanPayload(List.copyOf(include), projection);
    }

    /** The scanned document's source: the asked fields of the stored source, or nothing when none were asked. */
    public JsonObject source(JsonNode payload) {
        return projection.fetch() ? projection.apply(QdrantJson.toObject(payload.path(QdrantLayout.SOURCE)))
                : JsonObject.of();
    }
}
