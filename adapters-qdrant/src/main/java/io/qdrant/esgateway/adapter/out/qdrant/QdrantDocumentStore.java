package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient.QdrantError;
import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import io.qdrant.esgateway.domain.time.Now;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantFacets;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantKnnSearch;
import io.qdrant.esgateway.adapter.out.qdrant.read.StoredDocuments;
import io.qdrant.esgateway.adapter.out.qdrant.read.ScanPayload;
import io.qdrant.esgateway.adapter.out.qdrant.read.BesideRead;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantOrderedPages;
import io.qdrant.esgateway.adapter.out.qdrant.read.BesideReads;
import io.qdrant.esgateway.adapter.out.qdrant.read.SortPayload;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.GatewayScoring;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.ConstantScores;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.adapter.out.qdrant.filter.SupersetFilter;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * The {@link io.qdrant.esgateway.application.port.out.DocumentStore} on Qdrant 1.19's REST API: one collection per
 * concrete index ({@link QdrantLayout} has the naming, the point ids and the payload layout).
 *
 * <p>What is native: matching (every supported query becomes a Qdrant filter, {@link FilterTranslator}), exact
 * counts ({@code count} with {@code exact:true}), reads in index order (scroll by point id), numeric/date sorts
 * ({@code order_by}, {@link QdrantOrderedPages}) and {@code terms} counts ({@code facet},
 * {@link QdrantFacets}); other sorts and aggregations are declared absent ({@link #CAPABILITIES}), so the gateway
 * computes them over {@link #scan}.
 * Relevance scoring is native where the score is the same constant for every match (filters,
 * {@code constant_score}, {@code match_all}); full-text queries, per-document scores and {@code min_score} are
 * matched and scored by the gateway over Qdrant's candidates ({@link GatewayScoring}) when the store was opened with
 * a {@link RelevanceScorer}, and refused with a 400 otherwise.
 *
 * <p>Searches with kNN parts (top-level {@code knn}, {@code knn} queries) go to {@link QdrantKnnSearch}: Qdrant's
 * query API finds the neighbours, whose scores are Elasticsearch's.
 *
 * <p>Writes go as one {@code points/batch} request with {@code wait=true} (upserts and deletes in order, then the
 * metadata point with the highest sequence number), split only when the body would exceed Qdrant's request limit.
 */
public final class QdrantDocumentStore implements QdrantStores.Handle {
    /**
     * Honest capabilities: exact counts; native ordering by numeric and date fields in their default modes through
     * {@code order_by} ({@link QdrantOrderedPages} compensates its repeats of multi-valued points, its omission of
     * points without the key and its ties by point id, so the page is ES's); counts-only {@code terms} on keyword,
     * integral, date and boolean fields through {@code facet} ({@link QdrantFacets}); every other sort and
     * aggregation over the complete scan.
     */
    static final BackendCapabilities CAPABILITIES = new BackendCapabilities(
            Set.of(ValueKind.LONG, ValueKind.DOUBLE, ValueKind.FLOAT, ValueKind.DATE), Set.of(), false, Set.of(),
            true, false, true, true, QdrantFacets.FACETED, true);
    static final int PAGE = 256;
    /** Qdrant's default {@code max_request_size_mb} is 32 MiB; batches stay well below it. */
    static final int MAX_BATCH_BYTES = 16 << 20;
    public static final List<String> STORED = List.of(QdrantLayout.ID, QdrantLayout.SOURCE_TEXT,
            QdrantLayout.VERSION, QdrantLayout.SEQ_NO, QdrantLayout.PRIMARY_TERM);

    /** What the adapter remembers of a collection: the vectors it has, and the sequence number (when known). */
    private static final class State {
        final ReentrantLock writing = new ReentrantLock();
        volatile Set<String> vectors;
        volatile Long maxSeqNo;
    }

    private final QdrantClient http;
    private final ConcurrentHashMap<String, State> states = new ConcurrentHashMap<>();
    private final QdrantKnnSearch knn = new QdrantKnnSearch(this);
    /** Full-text matching and per-document scores by the gateway; absent without a scorer (then refused). */
    private final RelevanceScorer scorer;
    private final GatewayScoring scoring;

    QdrantDocumentStore(QdrantClient http) {
        this(http, null);
    }

    QdrantDocumentStore(QdrantClient http, RelevanceScorer scorer) {
        this(http, scorer, GatewayScoring.SCORE_BATCH);
    }

    /** With candidates scored {@code scoreBatch} at a time (tests use small batches to cross batch boundaries). */
    QdrantDocumentStore(QdrantClient http, RelevanceScorer scorer, int scoreBatch) {
        this.http = http;
        this.scorer = scorer;
        this.scoring = scorer == null ? null : new GatewayScoring(this, scorer, scoreBatch);
    }

    @Override
    public String name() {
        return "qdrant";
    }

    public String collection(IndexMetadata index) {
        return QdrantLayout.collection(http.settings().collectionPrefix(), index);
    }

    @Override
    public BackendCapabilities capabilities() {
        return CAPABILITIES;
    }

    // ---------------------------------------------------------------- collections

    @Override
    public void createIndex(IndexMetadata index) {
        String collection = collection(index);
        ObjectNode body = QdrantClient.object();
        Map<String, FieldMapping.DenseVectorField> vectors = new LinkedHashMap<>();
        denseVectors("", index.mappings().properties(), vectors);
        vectors.values().removeIf(v -> !v.hasDims()); // dims fixed later by a document: kept in _source only
        if (!vectors.isEmpty()) {
            ObjectNode config = body.putObject("vectors");
            vectors.forEach((name, v) -> {
                ObjectNode params = config.putObject(name);
                params.put("size", v.dims());
                params.put("distance", switch (v.similarity()) {
                    case COSINE -> "Cosine";
                    case DOT_PRODUCT, MAX_INNER_PRODUCT -> "Dot";
                    case L2_NORM -> "Euclid";
                });
            });
        }
        body.put("on_disk_payload", true);
        String what = "create the collection of index [" + index.name() + "]";
        try {
            http.call("PUT", "/collections/" + QdrantClient.segment(collection), Map.of(), body, false, what);
        } catch (QdrantError e) {
            if (e.status == 409) {
                throw GatewayException.alreadyExists(index.name(), index.uuid());
            }
            throw http.failure(e, what);
        }
        try {
            Map<String, ObjectNode> indexes = new LinkedHashMap<>();
            indexes.put(QdrantLayout.ID, keywordSchema());
            FilterTranslator.payloadIndexes("", index.mappings().properties(), indexes);
            for (Map.Entry<String, ObjectNode> e : indexes.entrySet()) {
                createPayloadIndex(index, collection, e.getKey(), e.getValue());
            }
            if (scorer != null) {
                for (Map.Entry<String, ObjectNode> e : TextPayload.payloadIndexes(index.mappings()).entrySet()) {
                    createPayloadIndexAt(index, collection, e.getKey(), e.getValue(), e.getKey());
                }
            }
        } catch (RuntimeException e) {
            try {
                http.call("DELETE", "/collections/" + QdrantClient.segment(collection), Map.of(), null, false,
                        "remove the half-created collection of index [" + index.name() + "]");
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        State state = new State();
        state.vectors = Set.copyOf(vectors.keySet());
        state.maxSeqNo = -1L;
        states.put(collection, state);
    }

    private static ObjectNode keywordSchema() {
        ObjectNode s = QdrantClient.object();
        s.put("type", "keyword");
        return s;
    }

    private void createPayloadIndex(IndexMetadata index, String collection, String field, ObjectNode schema) {
        createPayloadIndexAt(index, collection, field.equals(QdrantLayout.ID) ? QdrantLayout.ID
                : QdrantLayout.fieldPath(field), schema, field);
    }

    private void createPayloadIndexAt(IndexMetadata index, String collection, String key, ObjectNode schema,
                                      String field) {
        ObjectNode body = QdrantClient.object();
        body.put("field_name", key);
        body.set("field_schema", schema);
        call(index, "PUT", collection, "/index", Map.of("wait", "true"), body, false,
                "create the payload index of [" + field + "] of index [" + index.name() + "]");
    }

    private static void denseVectors(String prefix, Map<String, FieldMapping> fields,
                                     Map<String, FieldMapping.DenseVectorField> out) {
        fields.forEach((name, mapping) -> {
            switch (mapping) {
                case FieldMapping.DenseVectorField v -> out.put(prefix + name, v);
                case FieldMapping.ObjectField o -> denseVectors(prefix + name + ".", o.properties(), out);
                default -> {
                }
            }
        });
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        String collection = collection(index);
        String what = "delete the collection of index [" + index.name() + "]";
        try {
            // a missing collection answers 200 with result false: not an error
            http.call("DELETE", "/collections/" + QdrantClient.segment(collection), Map.of(), null, false, what);
        } catch (QdrantError e) {
            if (e.status != 404) {
                throw http.failure(e, what);
            }
        } finally {
            states.remove(collection);
        }
    }

    /** Creates the payload indexes of fields the collection does not index yet (read from its payload schema). */
    @Override
    public void updateMappings(IndexMetadata index) {
        String collection = collection(index);
        JsonNode info = call(index, "GET", collection, "", Map.of(), null, true,
                "read the collection of index [" + index.name() + "]");
        JsonNode schema = info.path("payload_schema");
        Map<String, ObjectNode> indexes = new LinkedHashMap<>();
        FilterTranslator.payloadIndexes("", index.mappings().properties(), indexes);
        for (Map.Entry<String, ObjectNode> e : indexes.entrySet()) {
            if (!schema.has(QdrantLayout.fieldPath(e.getKey()))) {
                createPayloadIndex(index, collection, e.getKey(), e.getValue());
            }
        }
        if (scorer != null) {
            for (Map.Entry<String, ObjectNode> e : TextPayload.payloadIndexes(index.mappings()).entrySet()) {
                if (!schema.has(e.getKey())) {
                    createPayloadIndexAt(index, collection, e.getKey(), e.getValue(), e.getKey());
                }
            }
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        String collection = collection(index);
        State state = state(index, collection);
        state.writing.lock();
        try {
            long current = currentMaxSeqNo(index, collection, state);
            long recorded = Math.max(current, maxSeqNo);
            if (writes.isEmpty() && recorded == current) {
                return;
            }
            Set<String> vectors = vectors(index, collection, state);
            List<ObjectNode> operations = new ArrayList<>();
            ArrayNode run = null;
            boolean runIsUpsert = false;
            for (DocumentWrite write : writes) {
                boolean upsert = write instanceof DocumentWrite.Upsert;
                if (run == null || runIsUpsert != upsert) {
                    ObjectNode op = QdrantClient.object();
                    run = upsert ? op.putObject("upsert").putArray("points")
                            : op.putObject("delete").putArray("points");
                    runIsUpsert = upsert;
                    operations.add(op);
                }
                switch (write) {
                    case DocumentWrite.Upsert u -> run.add(point(index, u.document(), vectors, scorer));
                    case DocumentWrite.Delete d -> run.add(QdrantLayout.pointId(index, d.id()));
                }
            }
            ObjectNode meta = QdrantClient.object();
            ObjectNode metaPoint = meta.putObject("upsert").putArray("points").addObject();
            metaPoint.put("id", QdrantLayout.META_POINT);
            metaPoint.putObject("vector");
            metaPoint.putObject("payload").put(QdrantLayout.MAX_SEQ_NO, recorded);
            operations.add(meta);
            for (ObjectNode batch : batches(operations)) {
                call(index, "POST", collection, "/points/batch", Map.of("wait", "true"), batch, false,
                        "write to the collection of index [" + index.name() + "]");
            }
            state.maxSeqNo = recorded;
        } catch (RuntimeException e) {
            // the outcome may be partial or unknown: read the sequence number again next time
            state.maxSeqNo = null;
            throw e;
        } finally {
            state.writing.unlock();
        }
    }

    /** The operations as few {@code points/batch} bodies as Qdrant's request limit allows (usually one). */
    static List<ObjectNode> batches(List<ObjectNode> operations) {
        List<ObjectNode> out = new ArrayList<>();
        ObjectNode body = QdrantClient.object();
        ArrayNode ops = body.putArray("operations");
        long size = 0;
        for (ObjectNode op : operations) {
            long opSize = op.toString().length() * 2L;
            if (size > 0 && size + opSize > MAX_BATCH_BYTES) {
                out.add(body);
                body = QdrantClient.object();
                ops = body.putArray("operations");
                size = 0;
            }
            ops.add(op);
            size += opSize;
        }
        out.add(body);
        return out;
    }

    private static ObjectNode point(IndexMetadata index, IndexableDocument document, Set<String> vectors,
                                    RelevanceScorer scorer) {
        ObjectNode point = QdrantClient.object();
        point.put("id", QdrantLayout.pointId(index, document.id()));
        ObjectNode vector = point.putObject("vector");
        ObjectNode payload = point.putObject("payload");
        payload.put(QdrantLayout.ID, document.id());
        payload.put(QdrantLayout.SOURCE_TEXT, QdrantJson.exactText(document.source()));
        payload.set(QdrantLayout.SOURCE, QdrantJson.toNode(document.source()));
        payload.put(QdrantLayout.VERSION, document.version().version());
        payload.put(QdrantLayout.SEQ_NO, document.version().seqNo());
        payload.put(QdrantLayout.PRIMARY_TERM, document.version().primaryTerm());
        ObjectNode fields = payload.putObject(QdrantLayout.FIELDS);
        for (IndexedValue value : document.values()) {
            switch (value) {
                case IndexedValue.Vector v -> {
                    if (vectors.contains(v.field())) {
                        ArrayNode array = vector.putArray(v.field());
                        for (float f : v.values()) {
                            array.add(f);
                        }
                    }
                }
                case IndexedValue.Keyword k -> values(fields, k.field()).add(k.value());
                case IndexedValue.Text t -> values(fields, t.field()).add(t.value());
                case IndexedValue.LongValue l -> values(fields, l.field()).add(l.value());
                case IndexedValue.DoubleValue d -> values(fields, d.field()).add(d.value());
                case IndexedValue.FloatValue f -> values(fields, f.field()).add((double) f.value());
                case IndexedValue.BooleanValue b -> values(fields, b.field()).add(b.value());
                case IndexedValue.DateValue d -> values(fields, d.field()).add(d.epochMillis());
            }
        }
        if (scorer != null) {
            TextPayload.add(payload, scorer, index, document.values());
        }
        return point;
    }

    private static ArrayNode values(ObjectNode fields, String field) {
        JsonNode existing = fields.get(field);
        return existing instanceof ArrayNode a ? a : fields.putArray(field);
    }

    // ---------------------------------------------------------------- reads by id

    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        Set<String> wanted = new LinkedHashSet<>(ids);
        if (wanted.isEmpty()) {
            collection(index);
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
        String collection = collection(index);
        ObjectNode body = QdrantClient.object();
        ArrayNode list = body.putArray("ids");
        ids.forEach(id -> list.add(QdrantLayout.pointId(index, id)));
        ArrayNode include = body.putArray("with_payload");
        STORED.forEach(include::add);
        body.put("with_vector", false);
        String what = "get documents of index [" + index.name() + "]";
        try {
            return http.call("POST", "/collections/" + QdrantClient.segment(collection) + "/points", Map.of(), body,
                    true, what, StoredDocuments.retrieved(index, ids));
        } catch (QdrantError e) {
            throw collectionFailure(index, collection, what, e);
        }
    }

    private static StoredDocument stored(IndexMetadata index, JsonNode payload) {
        JsonNode id = payload.get(QdrantLayout.ID);
        JsonNode text = payload.get(QdrantLayout.SOURCE_TEXT);
        if (id == null || !id.isTextual() || text == null || !text.isTextual()) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "a point of the collection of index ["
                    + index.name() + "] has no [_id] or [_src] payload: it was not written by the gateway",
                    Map.of(), null);
        }
        return new StoredDocument(id.asText(), new DocumentVersion(payload.path(QdrantLayout.VERSION).asLong(),
                payload.path(QdrantLayout.SEQ_NO).asLong(), payload.path(QdrantLayout.PRIMARY_TERM).asLong(1)),
                (JsonObject) Json.compactObject(text.asText()));
    }

    @Override
    public long maxSeqNo(IndexMetadata index) {
        String collection = collection(index);
        State state = state(index, collection);
        Long known = state.maxSeqNo;
        return known != null ? known : currentMaxSeqNo(index, collection, state);
    }

    private long currentMaxSeqNo(IndexMetadata index, String collection, State state) {
        Long known = state.maxSeqNo;
        if (known != null) {
            return known;
        }
        ObjectNode body = QdrantClient.object();
        body.putArray("ids").add(QdrantLayout.META_POINT);
        body.putArray("with_payload").add(QdrantLayout.MAX_SEQ_NO);
        body.put("with_vector", false);
        JsonNode result = call(index, "POST", collection, "/points", Map.of(), body, true,
                "read the sequence number of index [" + index.name() + "]");
        long value = -1;
        for (JsonNode record : result) {
            value = record.path("payload").path(QdrantLayout.MAX_SEQ_NO).asLong(-1);
        }
        state.maxSeqNo = value;
        return value;
    }

    private State state(IndexMetadata index, String collection) {
        return states.computeIfAbsent(collection, c -> new State());
    }

    /** The named vectors of the index's collection. */
    public Set<String> vectorNames(IndexMetadata index) {
        String collection = collection(index);
        return vectors(index, collection, state(index, collection));
    }

    private Set<String> vectors(IndexMetadata index, String collection, State state) {
        Set<String> known = state.vectors;
        if (known != null) {
            return known;
        }
        JsonNode info = call(index, "GET", collection, "", Map.of(), null, true,
                "read the collection of index [" + index.name() + "]");
        Set<String> names = new HashSet<>();
        JsonNode vectors = info.path("config").path("params").path("vectors");
        if (vectors.isObject() && !vectors.has("size")) {
            vectors.fieldNames().forEachRemaining(names::add);
        }
        state.vectors = Set.copyOf(names);
        return state.vectors;
    }

    // ---------------------------------------------------------------- counting

    @Override
    public long count(IndexMetadata index, Optional<Query> query) {
        if (query.isPresent() && QdrantKnnSearch.hasKnn(query.get())) {
            return knn.count(index, query.get());
        }
        if (scoring != null && query.isPresent() && SupersetFilter.textual(index, query.get())) {
            return scoring.count(index, query.get());
        }
        FilterTranslator translator = new FilterTranslator(index, now());
        Translated matches = query.map(translator::query).orElse(new FilterTranslator.Always());
        return count(index, matches);
    }

    /**
     * {@link #count(IndexMetadata, Translated)} prepared to go beside the page's first call ({@link QdrantClient.Beside});
     * {@code matches} is not {@link FilterTranslator.Never}.
     */
    private QdrantClient.Beside<Long> countBeside(IndexMetadata index, Translated matches) {
        ObjectNode body = QdrantClient.object();
        body.set("filter", filter(matches));
        body.put("exact", true);
        return http.beside("POST", "/collections/" + QdrantClient.segment(collection(index)) + "/points/count",
                Map.of(), body, "count the documents of index [" + index.name() + "]", StreamedJsonNodes.count());
    }

    /** A beside count's result, its error answer reported as {@link #count(IndexMetadata, Translated)} reports it. */
    private long besideResult(IndexMetadata index, QdrantClient.Beside<Long> beside) {
        try {
            return beside.result();
        } catch (QdrantError e) {
            throw collectionFailure(index, collection(index), "count the documents of index [" + index.name() + "]",
                    e);
        }
    }

    public long count(IndexMetadata index, Translated matches) {
        String collection = collection(index);
        if (matches instanceof FilterTranslator.Never) {
            return 0;
        }
        ObjectNode body = QdrantClient.object();
        body.set("filter", filter(matches));
        body.put("exact", true);
        return call(index, "POST", collection, "/points/count", Map.of(), body, true,
                "count the documents of index [" + index.name() + "]", StreamedJsonNodes.count());
    }

    @Override
    public StoreStats stats(IndexMetadata index) {
        return new StoreStats(count(index, new FilterTranslator.Always()), 0, 0);
    }

    @Override
    public void ping() {
        try {
            http.call("GET", "/collections", Map.of(), null, true, "reach Qdrant");
        } catch (QdrantError e) {
            GatewayException g = http.failure(e, "reach Qdrant");
            throw GatewayException.backendUnavailable(g.getMessage(), e);
        } catch (GatewayException e) {
            throw e.kind() == ErrorKind.BACKEND_UNAVAILABLE ? e : GatewayException.backendUnavailable(e.getMessage(),
                    e);
        }
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

    // ---------------------------------------------------------------- search

    /** Everything a request's hits must match: query (kNN refused), post_filter when asked, an extra filter. */
    private static Translated matches(IndexMetadata index, SearchRequest search, boolean postFilter,
                                      Optional<Query> extra, FilterTranslator translator) {
        if (!search.knn().isEmpty()) {
            throw FilterTranslator.unsupported("[knn] search");
        }
        if (search.minScore().isPresent()) {
            throw FilterTranslator.unsupported("[min_score]");
        }
        List<Translated> parts = new ArrayList<>();
        search.query().ifPresent(q -> parts.add(translator.query(q)));
        if (postFilter) {
            search.postFilter().ifPresent(q -> parts.add(translator.query(q)));
        }
        extra.ifPresent(q -> parts.add(translator.query(q)));
        return FilterTranslator.and(parts);
    }

    @Override
    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        if (QdrantKnnSearch.applies(scan.search()) || scan.filter().map(QdrantKnnSearch::hasKnn).orElse(false)) {
            knn.scan(index, scan, sink);
            return;
        }
        if (scoring != null && GatewayScoring.needed(index, scan.search(), scan.scores(), scan.filter(),
                scan.postFilter())) {
            scoring.scan(index, scan, sink);
            return;
        }
        FilterTranslator translator = new FilterTranslator(index, now());
        Translated matches = matches(index, scan.search(), scan.postFilter(), scan.filter(), translator);
        float score = scan.scores() ? ConstantScores.of(scan.search().query()) : Float.NaN;
        if (matches instanceof FilterTranslator.Never) {
            return;
        }
        ScanPayload read = ScanPayload.of(scan.fields());
        scroll(index, matches, read.include(), Integer.MAX_VALUE, record -> {
            JsonNode payload = record.path("payload");
            sink.accept(new ScannedDocument(payload.path(QdrantLayout.ID).asText(),
                    QdrantLayout.position(record.path("id").asText()), score, read.source(payload)));
            return true;
        });
    }

    /** Scrolls the matches in point-id order, {@link #PAGE} at a time, until {@code limit} or {@code sink} says stop. */
    public void scroll(IndexMetadata index, Translated matches, List<String> include, int limit,
                        java.util.function.Predicate<JsonNode> sink) {
        String collection = collection(index);
        JsonNode offset = null;
        int seen = 0;
        ObjectNode filter = filter(matches);
        while (seen < limit) {
            ObjectNode body = QdrantClient.object();
            body.set("filter", filter);
            body.put("limit", Math.min(PAGE, limit - seen));
            ArrayNode with = body.putArray("with_payload");
            include.forEach(with::add);
            body.put("with_vector", false);
            if (offset != null) {
                body.set("offset", offset);
            }
            JsonNode result = call(index, "POST", collection, "/points/scroll", Map.of(), body, true,
                    "scroll the documents of index [" + index.name() + "]");
            for (JsonNode record : result.path("points")) {
                seen++;
                if (!sink.test(record) || seen >= limit) {
                    return;
                }
            }
            offset = result.get("next_page_offset");
            if (offset == null || offset.isNull()) {
                return;
            }
        }
    }

    @Override
    public boolean readsTogetherOnOneThread() {
        return true;
    }

    /** See {@link BesideReads}: a count-only search goes beside a {@code terms} aggregation's facet call. */
    @Override
    public List<ReadValue> readTogether(List<Read> reads) {
        return BesideReads.run(reads, this::step);
    }

    /**
     * A read of {@link #readTogether}: a search that is only its exact count (no page, a plain filter) is that count
     * prepared to go beside another call, after the checks {@link #search} makes first (their 400s thrown here); an
     * aggregation is its own calls, its facet's first call carrying a beside; anything else {@link #search}.
     */
    private BesideReads.Step step(Read read) {
        return switch (read) {
            case Read.Aggregate a -> new BesideReads.Step.Own(carried -> new ReadValue.Partials(aggregate(a.index(),
                    a.request(), a.plan(), carried)));
            case Read.Search s when s.topN() > 0 || !onFilterPath(s.index(), s.request()) ->
                    new BesideReads.Step.Own(carried -> new ReadValue.Hits(search(s.index(), s.request(), s.topN())));
            case Read.Search s -> {
                IndexMetadata index = s.index();
                SearchRequest request = s.request();
                // as search() before its count: translation, the score, the sort and search_after (their 400s)
                Translated matches = filterSearch(index, request).matches();
                if (request.trackTotalHits() instanceof TrackTotalHits.Disabled) {
                    yield new BesideReads.Step.Done(new ReadValue.Hits(new IndexHits(Optional.empty(), List.of(),
                            Float.NaN)));
                }
                if (matches instanceof FilterTranslator.Never) {
                    yield new BesideReads.Step.Done(new ReadValue.Hits(new IndexHits(IndexHits.Total.of(
                            request.trackTotalHits(), 0), List.of(), Float.NaN)));
                }
                QdrantClient.Beside<Long> count = countBeside(index, matches);
                yield new BesideReads.Step.Beside(count, () -> new ReadValue.Hits(new IndexHits(IndexHits.Total.of(
                        request.trackTotalHits(), besideResult(index, count)), List.of(), Float.NaN)));
            }
        };
    }

    /**
     * Whether {@link #search} answers from a translated Qdrant filter: not a kNN search, not one the gateway scores,
     * and not a highlight without a scorer (a 400).
     */
    private boolean onFilterPath(IndexMetadata index, SearchRequest request) {
        return !(request.highlight().isPresent() && scorer == null) && !QdrantKnnSearch.applies(request)
                && !(scoring != null && GatewayScoring.needed(index, request, request.needsScores(), Optional.empty(),
                true));
    }

    /** What a search on the filter path settles before any call: its matches, score and sort. */
    private record FilterSearch(Translated matches, float score, GatewaySort sort) {
    }

    /** The filter path's translation, constant score, sort and {@code search_after} (their 400s thrown here). */
    private FilterSearch filterSearch(IndexMetadata index, SearchRequest request) {
        LongSupplier now = now();
        Translated matches = matches(index, request, true, Optional.empty(), new FilterTranslator(index, now));
        float score = request.needsScores() ? ConstantScores.of(request.query()) : Float.NaN;
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), now);
        request.searchAfter().ifPresent(sort::parseAfter); // a bad value is a 400 before any call
        return new FilterSearch(matches, score, sort);
    }

    @Override
    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        if (!onFilterPath(index, request)) {
            if (request.highlight().isPresent() && scorer == null) {
                throw FilterTranslator.unsupported("[highlight]");
            }
            return QdrantKnnSearch.applies(request) ? knn.search(index, request, topN)
                    : scoring.search(index, request, topN);
        }
        FilterSearch prepared = filterSearch(index, request);
        Translated matches = prepared.matches();
        float score = prepared.score();
        GatewaySort sort = prepared.sort();
        // every match scores the same, so relevance order is index order
        boolean indexOrder = request.searchAfter().isEmpty()
                && request.sort().stream().allMatch(s -> s instanceof SortSpec.Score);
        Optional<IndexHits.Total> total = Optional.empty();
        boolean counted = !(request.trackTotalHits() instanceof TrackTotalHits.Disabled);
        if (topN <= 0 || matches instanceof FilterTranslator.Never) {
            if (counted) {
                total = IndexHits.Total.of(request.trackTotalHits(), count(index, matches));
            }
            return new IndexHits(total, List.of(), Float.NaN);
        }
        // the exact count runs beside the page: two Qdrant calls overlapping (its failure still wins, as when it ran
        // first); an order_by page sends it right after its first request, else it runs on a thread of its own
        Optional<SortSpec.Field> primary = indexOrder ? Optional.empty()
                : QdrantOrderedPages.primary(index, request.sort());
        QdrantClient.Beside<Long> beside = counted && primary.isPresent() ? countBeside(index, matches) : null;
        BesideRead<Long> count = !counted ? null : beside != null ? BesideRead.beside(() -> besideResult(index,
                beside)) : BesideRead.start(() -> count(index, matches));
        List<Hit> hits;
        try {
            hits = page(index, request, topN, matches, score, sort, indexOrder, primary, beside);
        } catch (RuntimeException e) {
            throw count == null ? e : count.settle(e);
        }
        if (count != null) {
            total = IndexHits.Total.of(request.trackTotalHits(), count.join());
        }
        return new IndexHits(total, hits, hits.isEmpty() ? Float.NaN : score);
    }

    /**
     * The hits of a search's page (see {@link #search}); {@code primary}: the {@code order_by} path's first key when
     * that path serves the sort, {@code beside}: a read to send beside its first call (null: none).
     */
    private List<Hit> page(IndexMetadata index, SearchRequest request, int topN, Translated matches, float score,
                           GatewaySort sort, boolean indexOrder, Optional<SortSpec.Field> primary,
                           QdrantClient.Beside<?> beside) {
        List<Hit> hits = new ArrayList<>();
        java.util.function.BiFunction<String, JsonObject, Map<String, List<String>>> highlights = highlighter(index,
                request);
        if (indexOrder) {
            // every match scores the same: the best topN are the first topN in index (point id) order
            scroll(index, matches, STORED, topN, record -> {
                StoredDocument d = stored(index, record.path("payload"));
                hits.add(new Hit(index.name(), d.id(), score, request.sort().stream().map(s -> floatValue(score))
                        .toList(), d.source(), d.version(), highlights.apply(d.id(), d.source())));
                return true;
            });
        } else {
            if (primary.isPresent()) {
                String collection = collection(index);
                Map<String, StoredDocument> streamed = new HashMap<>();
                List<FetchRef> refs = QdrantOrderedPages.page(index, request, topN, matches, score, sort,
                        primary.get(), new QdrantOrderedPages.Reads() {
                            private QdrantClient.Beside<?> first = beside; // goes with the first request only

                            @Override
                            public <T> T post(String rest, ObjectNode body, String what,
                                              QdrantClient.ResultDecoder<T> decoder) {
                                QdrantClient.Beside<?> carried = first;
                                first = null;
                                return call(index, "POST", collection, rest, Map.of(), body, true, what, decoder,
                                        carried);
                            }
                        }, (m, include, limit, sink) -> scroll(index, m, include, limit, sink), streamed);
                hits.addAll(refs.isEmpty() ? List.of() : fetch(index, request, refs, streamed));
            } else {
                hits.addAll(sortedHits(index, request, topN, matches, score, sort));
            }
        }
        return hits;
    }

    private static JsonValue floatValue(float f) {
        return new JsonValue.JsonNumber(Double.parseDouble(Float.toString(f)));
    }

    /** Any other order: the gateway's own sort over a scan of the sort fields, then one retrieve of the page. */
    private List<Hit> sortedHits(IndexMetadata index, SearchRequest request, int topN, Translated matches,
                                 float score, GatewaySort sort) {
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        SortPayload reads = new SortPayload(index.mappings(), sort);
        List<GatewaySort.Key> keys = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        scroll(index, matches, reads.include(), Integer.MAX_VALUE, record -> {
            GatewaySort.Key key = reads.key(record, score);
            if (after == null || sort.isAfter(key, after)) {
                keys.add(key);
                ids.add(SortPayload.id(record));
            }
            return true;
        });
        List<Integer> order = reads.order(keys);
        List<FetchRef> refs = new ArrayList<>();
        for (int i = 0; i < Math.min(topN, order.size()); i++) {
            int at = order.get(i);
            refs.add(new FetchRef(ids.get(at), score, request.sort().isEmpty() ? List.of()
                    : sort.render(keys.get(at))));
        }
        return refs.isEmpty() ? List.of() : fetch(index, request, refs);
    }


    @Override
    public List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs) {
        return fetch(index, request, refs, Map.of());
    }

    /** {@link #fetch}, with the documents already read ({@code known}, by id) not retrieved again. */
    private List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs,
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
        java.util.function.BiFunction<String, JsonObject, Map<String, List<String>>> highlights = highlighter(index,
                request);
        List<Hit> hits = new ArrayList<>();
        for (FetchRef ref : refs) {
            StoredDocument d = found.get(ref.id());
            if (d != null) {
                hits.add(new Hit(index.name(), d.id(), ref.score(), ref.sort(), d.source(), d.version(),
                        highlights.apply(d.id(), d.source())));
            }
        }
        return hits;
    }

    /** The request's highlighting (by the scorer, from the source, as the Lucene store highlights), or none. */
    private java.util.function.BiFunction<String, JsonObject, Map<String, List<String>>> highlighter(
            IndexMetadata index, SearchRequest request) {
        return scorer == null || request.highlight().isEmpty() ? (id, source) -> Map.of()
                : scorer.highlighter(index, request);
    }

    /**
     * {@code terms} counts by Qdrant's {@code facet} ({@link QdrantFacets}); any other plan (reached only when the
     * capabilities are widened, e.g. in tests) or a facet answer that may be cut: the plan's collectors fed from a
     * scan, as the gateway's complete scan does.
     */
    @Override
    public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
        return aggregate(index, request, plan, null);
    }

    /** {@link #aggregate}, with a read sent beside the facet's first call ({@link QdrantClient.Beside}; null: none). */
    private NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan,
                                    QdrantClient.Beside<?> beside) {
        // facets count what a Qdrant filter matches: not kNN neighbours, not the gateway's full-text matching
        if (QdrantFacets.covers(index, plan) && !QdrantKnnSearch.applies(request)
                && (scoring == null || !GatewayScoring.needed(index, request, false, Optional.empty(), false))) {
            Translated matches = matches(index, request, false, Optional.empty(), new FilterTranslator(index, now()));
            String collection = collection(index);
            Optional<NamedPartials> counted = QdrantFacets.aggregate(index, plan, matches, new QdrantFacets.Reads() {
                private QdrantClient.Beside<?> first = beside; // goes with the first call only

                @Override
                public <T> T post(String rest, ObjectNode body, String what, QdrantClient.ResultDecoder<T> decoder) {
                    QdrantClient.Beside<?> carried = first;
                    first = null;
                    return call(index, "POST", collection, rest, Map.of(), body, true, what, decoder, carried);
                }
            });
            if (counted.isPresent()) {
                return counted.get();
            }
        }
        List<Set<String>> filterMatches = new ArrayList<>();
        for (Query filter : plan.filters()) {
            Set<String> matched = new HashSet<>();
            scan(index, new ScanRequest(request, false, Optional.of(filter), Set.of(), false),
                    d -> matched.add(d.id()));
            filterMatches.add(matched);
        }
        Set<String> fields = new LinkedHashSet<>();
        plan.fields().forEach(f -> fields.add(f.name()));
        Mappings mappings = index.mappings();
        NamedCollectors collectors = plan.newCollectors();
        scan(index, new ScanRequest(request, false, Optional.empty(), mappings.sourcePaths(fields),
                plan.needsScores()), d -> collectors.collect(new ValuesDoc(d.id(), d.score(),
                DocumentParser.parse(mappings, d.source(), d.id()).values(),
                i -> filterMatches.get(i).contains(d.id()))));
        return collectors.partial();
    }

    // ---------------------------------------------------------------- plumbing

    /** One {@code points/query} request on the index's collection; its {@code result}. */
    public JsonNode query(IndexMetadata index, ObjectNode body) {
        return read(index, "/points/query", body, "search the vectors of index [" + index.name() + "]");
    }

    /** A read-only POST to a collection-scoped endpoint ({@code rest} after the collection). */
    public JsonNode read(IndexMetadata index, String rest, ObjectNode body, String what) {
        return call(index, "POST", collection(index), rest, Map.of(), body, true, what);
    }

    /** A collection-scoped call; a missing collection is a backend fault (the catalog says the index exists). */
    public JsonNode call(IndexMetadata index, String method, String collection, String rest,
                          Map<String, String> query, JsonNode body, boolean idempotentRead, String what) {
        try {
            return http.call(method, "/collections/" + QdrantClient.segment(collection) + rest, query, body,
                    idempotentRead, what);
        } catch (QdrantError e) {
            throw collectionFailure(index, collection, what, e);
        }
    }

    /** {@link #call}, its result read by a streaming {@code decoder} (no tree). */
    public <T> T call(IndexMetadata index, String method, String collection, String rest, Map<String, String> query,
               JsonNode body, boolean idempotentRead, String what, QdrantClient.ResultDecoder<T> decoder) {
        return call(index, method, collection, rest, query, body, idempotentRead, what, decoder, null);
    }

    /** {@link #call}, with a read sent beside it ({@link QdrantClient.Beside}; null: none). */
    private <T> T call(IndexMetadata index, String method, String collection, String rest, Map<String, String> query,
                       JsonNode body, boolean idempotentRead, String what, QdrantClient.ResultDecoder<T> decoder,
                       QdrantClient.Beside<?> beside) {
        try {
            return http.call(method, "/collections/" + QdrantClient.segment(collection) + rest, query, body,
                    idempotentRead, what, decoder, beside);
        } catch (QdrantError e) {
            throw collectionFailure(index, collection, what, e);
        }
    }

    /** A collection-scoped call's error answer: a missing collection is a backend fault naming it. */
    private GatewayException collectionFailure(IndexMetadata index, String collection, String what, QdrantError e) {
        if (e.status == 404) {
            states.remove(collection);
            return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": its Qdrant collection ["
                    + collection + "] does not exist (" + e.qdrantMessage + ")", meta(index), e);
        }
        return http.failure(e, what);
    }

    private static Map<String, String> meta(IndexMetadata index) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("index_uuid", index.uuid());
        m.put("index", index.name());
        return m;
    }

    /** The current time of one search: read once, whatever date math it holds. */
    public static LongSupplier now() {
        return Now.once(System::currentTimeMillis);
    }

    @Override
    public void close() {
        http.close();
    }

}
