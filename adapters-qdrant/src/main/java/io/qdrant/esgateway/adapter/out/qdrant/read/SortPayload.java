package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.GatewaySort;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;

/**
 * What a gateway-side sort reads from Qdrant, and how it reads it: the payload include list (the document id and the
 * sort fields' source paths, never the whole source) and each record's {@link GatewaySort.Key} (its values parsed as
 * the mapping says, its position in index order: its {@code _seq_no}).
 */
public final class SortPayload {
    private final Mappings mappings;
    private final GatewaySort sort;
    private final SourceFilter projection;
    private final Set<String> fields;
    private final List<String> include;
    /** The candidates' values without the document parser, when the sort fields allow it (else {@code null}). */
    private final PlainSortValues plain;

    public SortPayload(Mappings mappings, GatewaySort sort) {
        this.mappings = mappings;
        this.sort = sort;
        this.fields = mappings.sourcePaths(sort.fields());
        this.projection = fields.isEmpty() ? SourceFilter.NONE : new SourceFilter(true, List.copyOf(fields), List.of());
        List<String> paths = new ArrayList<>();
        paths.add(QdrantLayout.ID);
        paths.add(QdrantLayout.SEQ_NO);
        paths.addAll(QdrantJson.sourceIncludes(fields));
        this.include = List.copyOf(paths);
        this.plain = PlainSortValues.of(mappings, fields);
    }

    /** The payload include list of the records to sort. */
    public List<String> include() {
        return include;
    }

    /** The document id of a record read with {@link #include}. */
    public static String id(JsonNode record) {
        return record.path("payload").path(QdrantLayout.ID).asText();
    }

    /** The sort key of a record read with {@link #include}, with {@code score} as its {@code _score}. */
    public GatewaySort.Key key(JsonNode record, float score) {
        return key(SortRecord.of(record), score);
    }

    /** The sort key of a record read with {@link #include}, with {@code score} as its {@code _score}. */
    public GatewaySort.Key key(SortRecord record, float score) {
        String id = record.docId();
        List<IndexedValue> values = plain == null ? null : plain.values(record.source());
        if (values == null) {
            JsonObject source = projection.fetch() ? project(record.source()) : JsonObject.of();
            values = DocumentParser.parse(mappings, source, id).values();
        }
        ValuesDoc doc = new ValuesDoc(id, score, values, i -> false);
        return sort.key(doc, record.position());
    }

    /**
     * The source projected to the sort fields. When every top-level key is itself one of the fields (what the
     * include list gives for fields without dots), the projection keeps everything: the source as it is.
     */
    private JsonObject project(JsonObject source) {
        for (String key : source.members().keySet()) {
            if (!fields.contains(key)) {
                return projection.apply(source);
            }
        }
        return source;
    }

    /** The indexes of {@code keys} in the sort's order. */
    public List<Integer> order(List<GatewaySort.Key> keys) {
        List<Integer> order = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> sort.order().compare(keys.get(a), keys.get(b)));
        return order;
    }
}
