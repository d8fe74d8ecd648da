package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.time.Now;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The reads every search path is made of: documents by id (get, fetch), the scroll of a filter's matches in index
 * order (ascending {@code _seq_no}), exact counts, and {@code points/query} calls.
 */
public final class CollectionReads {
    /** Points scrolled per call. */
    static final int PAGE = 256;
    /** The payload keys of a stored document: id, exact source, version triple and routing. */
    public static final List<String> STORED = List.of(QdrantLayout.ID, QdrantLayout.SOURCE_TEXT,
            QdrantLayout.VERSION, QdrantLayout.SEQ_NO, QdrantLayout.PRIMARY_TERM, QdrantLayout.ROUTING);

    private final CollectionCalls calls;
    /** Highlights fetched hits; null: highlighting is refused with a 400. */
    private final RelevanceScorer scorer;

    public CollectionReads(CollectionCalls calls, RelevanceScorer scorer) {
        this.calls = calls;
        this.scorer = scorer;
    }

    /** The collection-scoped calls these reads make. */
    public CollectionCalls calls() {
        return calls;
    }

    /** The current time of one search: read once, whatever date math it holds. */
    public static LongSupplier now() {
        return Now.once(System::currentTimeMillis);
    }

    /** A Qdrant {@code Filter} of a translation, always leaving out the metadata point. */
    public static ObjectNode filter(Translated matches) {
        ObjectNode filter = QdrantClient.object();
        if (matches instanceof FilterTranslator.Condition c) {
            filter.putArray("must").add(c.node());
        }
        ObjectNode meta = QdrantClient.object();
        meta.putArray("has_id").add(QdrantLayout.META_POINT);
        filter.putArray("must_not").add(meta);
        return filter;
    }

    /** One {@code points/query} request on the index's collection; its {@code result}. */
    public JsonNode query(IndexMetadata index, ObjectNode body) {
        return read(index, "/points/query", body, "search the vectors of index [" + index.name() + "]");
    }

    /** A read-only POST to a collection-scoped endpoint ({@code rest} after the collection). */
    public JsonNode read(IndexMetadata index, String rest, ObjectNode body, String what) {
        return calls.read(index, rest, body, what);
    }

    // ---------------------------------------------------------------- by id

    /** The documents with these ids that exist, in the order asked. */
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        Set<String> wanted = new LinkedHashSet<>(ids);
        if (wanted.isEmpty()) {
            calls.collection(index);
            return Map.of();
        }
        Map<String, StoredDocument> found = retrieve(index, wanted);
        Map<String, StoredDocument> ordered = new LinkedHashMap<>();
        for (String id : wanted) {
            StoredDocument d = found.get(id);
            if (d != null) {
                ordered.put(id, d);
            }
        }
        return ordered;
    }

    /** One batched retrieve of these documents' ids, version triples and exact sources. */
    private Map<String, StoredDocument> retrieve(IndexMetadata index, Set<String> ids) {
        ObjectNode body = QdrantClient.object();
        ArrayNode list = body.putArray("ids");
        ids.forEach(id -> list.add(QdrantLayout.pointId(index, id)));
        ArrayNode include = body.putArray("with_payload");
        STORED.forEach(include::add);
        body.put("with_vector", false);
        return calls.call(index, "POST", calls.collection(index), "/points", Map.of(), body, true,
                "get documents of index [" + index.name() + "]", StoredDocuments.retrieved(index, ids));
    }

    /** The stored document of a point's payload read with {@link #STORED}. */
    static StoredDocument stored(IndexMetadata index, JsonNode payload) {
        JsonNode id = payload.get(QdrantLayout.ID);
        JsonNode text = payload.get(QdrantLayout.SOURCE_TEXT);
        if (id == null || !id.isTextual() || text == null || !text.isTextual()) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "a point of the collection of index ["
                    + index.name() + "] has no [_id] or [_src] payload: it was not written by the gateway",
                    Map.of(), null);
        }
        return new StoredDocument(id.asText(), new DocumentVersion(payload.path(QdrantLayout.VERSION).asLong(),
                payload.path(QdrantLayout.SEQ_NO).asLong(), payload.path(QdrantLayout.PRIMARY_TERM).asLong(1)),
                (JsonObject) Json.compactObject(text.asText()), QdrantLayout.routing(payload));
    }

    /** The fetch phase: the documents of {@code refs} as hits, highlighted when the request asks. */
    public List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs) {
        return fetch(index, request, refs, Map.of());
    }

    /** {@link #fetch}, with the documents already read ({@code known}, by id) not retrieved again. */
    List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs,
                    Map<String, StoredDocument> known) {
        if (request.highlight().isPresent() && scorer == null) {
            throw FilterTranslator.unsupported("[highlight]");
        }
        Set<String> ids = new LinkedHashSet<>();
        refs.forEach(r -> {
            if (!known.containsKey(r.id())) {
                ids.add(r.id());
            }
        });
        if (ids.isEmpty() && known.isEmpty()) {
            return List.of();
        }
        Map<String, StoredDocument> found = known;
        if (!ids.isEmpty()) {
            found = new HashMap<>(known);
            found.putAll(retrieve(index, ids));
        }
        BiFunction<String, JsonObject, Map<String, List<String>>> highlights = highlighter(index, request);
        List<Hit> hits = new ArrayList<>();
        for (FetchRef ref : refs) {
            StoredDocument d = found.get(ref.id());
            if (d != null) {
                hits.add(new Hit(index.name(), d.id(), ref.score(), ref.sort(), d.source(), d.version(),
                        highlights.apply(d.id(), d.source()), d.routing()));
            }
        }
        return hits;
    }

    /** The request's highlighting (by the scorer, from the source, as the Lucene store highlights), or none. */
    BiFunction<String, JsonObject, Map<String, List<String>>> highlighter(IndexMetadata index,
                                                                          SearchRequest request) {
        return scorer == null || request.highlight().isEmpty() ? (id, source) -> Map.of()
                : scorer.highlighter(index, request);
    }

    // ---------------------------------------------------------------- scroll and count

    /**
     * Scrolls the matches in index order (ascending {@code _seq_no}, {@link QdrantLayout#position}), {@link #PAGE} at
     * a time, until {@code limit} or {@code sink} says stop or the search's deadline
     * ({@link io.qdrant.esgateway.domain.search.SearchDeadline}) has passed between pages. Every record's payload
     * carries its {@code _seq_no}.
     */
    public void scroll(IndexMetadata index, Translated matches, List<String> include, int limit,
                       Predicate<JsonNode> sink) {
        scroll(index, matches, include, limit, 0L, sink);
    }

    /**
     * {@link #scroll(IndexMetadata, Translated, List, int, Predicate)} from the position {@code from} on (inclusive;
     * no point need hold it). Qdrant's scroll {@code order_by} over the {@code _seq_no} range index: each page starts
     * at the last value read ({@code start_from} is inclusive) and leaves out the points already read at that value,
     * so a page costs one call whatever ties a value holds.
     */
    public void scroll(IndexMetadata index, Translated matches, List<String> include, int limit, long from,
                       Predicate<JsonNode> sink) {
        String collection = calls.collection(index);
        long start = from;
        List<String> atStart = new ArrayList<>();
        int seen = 0;
        while (seen < limit) {
            ObjectNode body = QdrantClient.object();
            ObjectNode filter = filter(matches);
            if (!atStart.isEmpty()) {
                ObjectNode read = QdrantClient.object();
                ArrayNode ids = read.putArray("has_id");
                atStart.forEach(ids::add);
                ((ArrayNode) filter.get("must_not")).add(read);
            }
            body.set("filter", filter);
            body.put("limit", Math.min(PAGE, limit - seen));
            ArrayNode with = body.putArray("with_payload");
            include.forEach(with::add);
            body.put("with_vector", false);
            ObjectNode orderBy = body.putObject("order_by");
            orderBy.put("key", QdrantLayout.SEQ_NO);
            orderBy.put("direction", "asc");
            if (start > 0) {
                orderBy.put("start_from", start);
            }
            JsonNode result = scrollCall(index, collection, body);
            JsonNode points = result.path("points");
            for (JsonNode record : points) {
                seen++;
                long position = record.path("order_value").asLong();
                if (record.path("payload") instanceof ObjectNode payload) {
                    payload.put(QdrantLayout.SEQ_NO, position);
                } else if (record instanceof ObjectNode r) {
                    r.putObject("payload").put(QdrantLayout.SEQ_NO, position);
                }
                if (position != start) {
                    start = position;
                    atStart.clear();
                }
                atStart.add(record.path("id").asText());
                if (!sink.test(record) || seen >= limit) {
                    return;
                }
            }
            if (points.size() < body.path("limit").asInt()) {
                return; // the last page: order_by never gives a next_page_offset
            }
            if (io.qdrant.esgateway.domain.search.SearchDeadline.passed()) {
                // the search's timeout: what was read so far is its partial result, as Elasticsearch's
                return;
            }
        }
    }

    /**
     * One page of the scroll in index order. A collection without the {@code _seq_no} range index (created before
     * index order was kept there) gets it from the layout step of {@link CollectionCalls}.
     */
    private JsonNode scrollCall(IndexMetadata index, String collection, ObjectNode body) {
        return calls.call(index, "POST", collection, "/points/scroll", Map.of(), body, true,
                "scroll the documents of index [" + index.name() + "]");
    }

    /** The exact count of the matches. */
    public long count(IndexMetadata index, Translated matches) {
        String collection = calls.collection(index);
        if (matches instanceof FilterTranslator.Never) {
            return 0;
        }
        ObjectNode body = QdrantClient.object();
        body.set("filter", filter(matches));
        body.put("exact", true);
        return calls.call(index, "POST", collection, "/points/count", Map.of(), body, true, countWhat(index),
                StreamedJsonNodes.count());
    }

    /**
     * {@link #count(IndexMetadata, Translated)} prepared to go beside a page's first call
     * ({@link QdrantClient.Beside}); {@code matches} is not {@link FilterTranslator.Never}.
     */
    QdrantClient.Beside<Long> countBeside(IndexMetadata index, Translated matches) {
        ObjectNode body = QdrantClient.object();
        body.set("filter", filter(matches));
        body.put("exact", true);
        return calls.beside(index, "/points/count", body, countWhat(index), StreamedJsonNodes.count());
    }

    /** A beside count's result, its error answer reported as {@link #count(IndexMetadata, Translated)} reports it. */
    long besideResult(IndexMetadata index, QdrantClient.Beside<Long> beside) {
        return calls.result(index, beside, countWhat(index));
    }

    private static String countWhat(IndexMetadata index) {
        return "count the documents of index [" + index.name() + "]";
    }
}
