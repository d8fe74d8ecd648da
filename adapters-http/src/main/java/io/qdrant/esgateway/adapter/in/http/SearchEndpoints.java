package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.in.SearchOperations;
import io.qdrant.esgateway.application.port.in.SearchOperations.CountResult;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.domain.aggregation.AggregationMeta;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import io.qdrant.esgateway.domain.search.FieldValues;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.HitMetadata;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code _search} and {@code _count}.
 *
 * <pre>
 * curl -XPOST localhost:9200/books/_search -H 'Content-Type: application/json' \
 *      -d '{"query":{"match":{"title":"dune"}},"sort":[{"year":"desc"}],"size":5}'
 * curl 'localhost:9200/books/_count?q=title:dune'
 * </pre>
 */
final class SearchEndpoints {
    /** URL parameters that change the search itself (handed to the domain parser). */
    static final Set<String> SEARCH_PARAMS = Set.of("q", "df", "default_operator", "lenient", "size", "from",
            "sort", "_source", "_source_includes", "_source_excludes", "track_total_hits", "track_scores",
            "stored_fields", "version", "seq_no_primary_term");
    private static final String SEARCH_ROUTE_PARAMS = String.join(",", SEARCH_PARAMS) + ","
            + Routes.INDEX_OPTIONS + ",timeout,rest_total_hits_as_int,search_type,request_cache,preference,routing,"
            + "batched_reduce_size,ccs_minimize_roundtrips,allow_partial_search_results,pre_filter_shard_size,"
            + "max_concurrent_shard_requests,typed_keys,analyze_wildcard,analyzer,scroll";
    private static final String COUNT_PARAMS = "q,df,default_operator,lenient,analyze_wildcard,analyzer,"
            + Routes.INDEX_OPTIONS + ",preference,routing,min_score,terminate_after";

    private final SearchOperations search;
    private final io.qdrant.esgateway.application.port.in.ScrollOperations scrolls;
    private final ResponseCaching caching;
    /** Whether answers go through the shared response cache (read once: the off mode costs one field test). */
    private final boolean cached;
    private final ResponseCaching.Codec<JsonValue> answers;

    private final io.qdrant.esgateway.application.port.in.PointInTimeOperations pits;

    SearchEndpoints(SearchOperations search, io.qdrant.esgateway.application.port.in.ScrollOperations scrolls,
                    io.qdrant.esgateway.application.port.in.PointInTimeOperations pits) {
        this(search, scrolls, pits, ResponseCaching.OFF, new JsonCodec());
    }

    SearchEndpoints(SearchOperations search, io.qdrant.esgateway.application.port.in.ScrollOperations scrolls,
                    io.qdrant.esgateway.application.port.in.PointInTimeOperations pits,
                    ResponseCaching caching, JsonCodec codec) {
        this.search = search;
        this.scrolls = scrolls;
        this.pits = pits;
        this.caching = caching;
        this.cached = caching.mode() != ResponseCaching.Mode.OFF;
        this.answers = new CachedAnswers(codec);
    }

    /**
     * A rendered answer as the shared cache keeps it: its compact JSON. Kept only when reading those bytes back and
     * writing them again gives the same bytes (a number the reader cannot carry exactly, such as one beyond the
     * double range, would change), so a served answer is byte for byte the computed one; an answer with shard
     * failures is not kept (a failure may be transient). Served again with the {@code took} of the request served.
     */
    record CachedAnswers(JsonCodec codec) implements ResponseCaching.Codec<JsonValue> {
        @Override
        public Optional<byte[]> encode(JsonValue answer) {
            if (answer instanceof JsonObject o && o.get("_shards") instanceof JsonObject shards
                    && shards.get("failed") instanceof JsonValue.JsonNumber failed && failed.value().doubleValue() != 0) {
                return Optional.empty();
            }
            byte[] bytes = codec.write(answer, false);
            return java.util.Arrays.equals(codec.write(codec.parse(bytes), false), bytes) ? Optional.of(bytes)
                    : Optional.empty();
        }

        @Override
        public JsonValue decode(byte[] bytes) {
            return codec.parse(bytes);
        }
    }

    /** The request as the cache keys it: a kind, the body re-serialised compactly and the parameters sorted. */
    private ResponseCaching.Request normalised(String kind, Optional<JsonValue> body, Map<String, String> params) {
        return new CacheRequest(kind, body, params, ((CachedAnswers) answers).codec());
    }

    /** {@code answer} with {@code took} measured from {@code start} (a cached answer carries its first one's). */
    private static JsonValue took(JsonValue answer, long start) {
        if (!(answer instanceof JsonObject o) || !o.has("took")) {
            return answer;
        }
        JsonObjectBuilder b = JsonObjectBuilder.object();
        o.members().forEach((k, v) -> b.put(k, k.equals("took")
                ? new JsonValue.JsonNumber((System.nanoTime() - start) / 1_000_000) : v));
        return b.build();
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_search", "search", SEARCH_ROUTE_PARAMS, true, this::search))
                .add(route("GET,POST", "/{index}/_search", "search", SEARCH_ROUTE_PARAMS, true, this::search))
                .add(route("GET,POST", "/_count", "count", COUNT_PARAMS, true, this::count))
                .add(route("GET,POST", "/{index}/_count", "count", COUNT_PARAMS, true, this::count));
    }

    private EsResponse search(EsRequest request) {
        long start = System.nanoTime();
        request.param("search_type").filter(t -> !t.equals("query_then_fetch")).ifPresent(t -> {
            throw GatewayException.unsupported("[search_type=" + t + "]");
        });
        request.param("analyzer").filter(a -> !a.equals("standard")).ifPresent(a -> {
            throw GatewayException.unsupported("[analyzer=" + a + "]");
        });
        request.param("timeout").ifPresent(io.qdrant.esgateway.domain.search.SearchTimeout::parse);
        Map<String, String> params = new LinkedHashMap<>();
        for (String p : SEARCH_PARAMS) {
            request.param(p).ifPresent(v -> params.put(p, v));
        }
        if (request.param("scroll").isEmpty()) {
            // Elasticsearch bounds a scroll's pages by its keep-alive, not by the search timeout
            request.param("timeout").ifPresent(t -> params.put("timeout", t));
        }
        Optional<PitEndpoints.PitSearch> pit = PitEndpoints.of(request);
        if (pit.isPresent()) {
            SearchRequest parsed = SearchRequestParser.parse(pit.get().body(), params);
            if (!ContextOwners.mayUse(pit.get().id())) {
                throw pits.missing(pit.get().id()); // another user's point in time does not exist for this one
            }
            pit.get().keepAlive().ifPresent(k -> ContextOwners.opened(pit.get().id(), k));
            JsonValue rendered = io.qdrant.esgateway.domain.search.SearchDeadline.within(timeout(pit.get().body(),
                    params), System::nanoTime, () -> render(io.qdrant.esgateway.application.port.in.PointInTimeOperations
                    .withTiebreaker(parsed), pit.get().body(), pits.search(pit.get().id(), pit.get().keepAlive(), parsed),
                    request.flag("rest_total_hits_as_int", false), start, Optional.empty(),
                    HitMetadata.of(pit.get().body(), params), request.flag("typed_keys", false)));
            // Elasticsearch answers a point-in-time search with its id first
            JsonObjectBuilder out = JsonObjectBuilder.object().put("pit_id", pit.get().id());
            ((JsonObject) rendered).members().forEach(out::put);
            return EsResponse.ok(out.build());
        }
        if (request.param("scroll").isPresent()) {
            java.time.Duration keepAlive = ScrollEndpoints.keepAlive(request.param("scroll").get(), "scroll");
            if (request.flag("request_cache", false)) {
                throw GatewayException.validationFailed(List.of("[request_cache] cannot be used in a scroll context"));
            }
            SearchRequest parsed = SearchRequestParser.parse(request.body(), params);
            io.qdrant.esgateway.application.port.in.ScrollOperations.Page page = scrolls.open(target(request), parsed,
                    keepAlive, Routes.indexOptions(request, true), HitMetadata.of(request.body(), params));
            page.scrollId().ifPresent(id -> ContextOwners.opened(id, keepAlive));
            return EsResponse.ok(render(parsed, request.body(), page.result(),
                    request.flag("rest_total_hits_as_int", false), start, page.scrollId(),
                    HitMetadata.of(request.body(), params), request.flag("typed_keys", false)));
        }
        return EsResponse.ok(execute(target(request), request.body(), params, Routes.indexOptions(request, true),
                request.flag("rest_total_hits_as_int", false), request.flag("typed_keys", false), start));
    }

    /**
     * One search, rendered as Elasticsearch renders a search response (also each answer of {@code _msearch});
     * {@code typedKeys}: aggregations named {@code <type>#<name>} ({@code typed_keys=true}).
     */
    JsonValue execute(String target, Optional<JsonValue> body, Map<String, String> params,
                      io.qdrant.esgateway.domain.index.CatalogView.Options options, boolean totalAsInt,
                      boolean typedKeys, long start) {
        SearchRequest parsed = SearchRequestParser.parse(body, params);
        for (SortSpec spec : parsed.sort()) {
            if (spec instanceof SortSpec.Field f && f.field().equals(
                    io.qdrant.esgateway.application.port.in.PointInTimeOperations.SHARD_DOC)) {
                throw GatewayException.validationFailed(List.of(
                        "[_shard_doc] sort field cannot be used without [point in time]"));
            }
        }
        HitMetadata metadata = HitMetadata.of(body, params);
        Optional<java.time.Duration> timeout = timeout(body, params);
        if (!cached || timeout.isPresent()) {
            // an answer that may be cut short by its timeout is never cached
            return io.qdrant.esgateway.domain.search.SearchDeadline.within(timeout, System::nanoTime, () -> render(parsed, body,
                    search.search(target, parsed, options), totalAsInt, start, Optional.empty(), metadata, typedKeys));
        }
        Map<String, String> key = new LinkedHashMap<>(params);
        key.put("rest_total_hits_as_int", Boolean.toString(totalAsInt));
        key.put("typed_keys", Boolean.toString(typedKeys));
        return took(caching.read(target, options, normalised("search", body, key), () -> render(parsed, body,
                search.search(target, parsed, options), totalAsInt, start, Optional.empty(), metadata, typedKeys),
                answers), start);
    }

    /** The search's {@code timeout}: the URL's, else the body's (none for {@code -1}). */
    private static Optional<java.time.Duration> timeout(Optional<JsonValue> body, Map<String, String> params) {
        if (params.containsKey("timeout")) {
            return io.qdrant.esgateway.domain.search.SearchTimeout.parse(params.get("timeout"));
        }
        return body.filter(b -> b instanceof JsonObject o && o.has("timeout"))
                .flatMap(b -> io.qdrant.esgateway.domain.search.SearchTimeout.parse(((JsonObject) b).get("timeout")));
    }

    /**
     * A search result rendered as Elasticsearch renders a search response ({@code parsed}: the request as the client
     * sent it), with {@code _scroll_id} first when it is a page of a scroll; {@code metadata}: the hit metadata asked
     * for ({@code version}, {@code seq_no_primary_term}); {@code typedKeys}: aggregations named {@code <type>#<name>}.
     */
    static JsonValue render(SearchRequest parsed, Optional<JsonValue> body, SearchResult result, boolean totalAsInt,
                            long start, Optional<String> scrollId, HitMetadata metadata, boolean typedKeys) {
        JsonObjectBuilder hits = JsonObjectBuilder.object();
        result.total().ifPresent(total -> {
            if (totalAsInt) {
                hits.put("total", total.value());
            } else {
                hits.put("total", JsonObjectBuilder.object().put("value", total.value())
                        .put("relation", total.exact() ? "eq" : "gte"));
            }
        });
        // ES reports max_score only when hits are ranked by relevance alone (no sort, or just _score descending)
        // or when track_scores asks for scores under a field sort
        boolean byRelevance = parsed.sort().isEmpty() || (parsed.sort().size() == 1
                && parsed.sort().get(0) instanceof SortSpec.Score s && s.order() == SortSpec.Order.DESC);
        // with no index to search, ES answers its empty response, whose max_score is 0.0
        float maxScore = result.indices() == 0 ? 0f : result.maxScore();
        hits.put("max_score", byRelevance || parsed.trackScores() || result.indices() == 0 ? score(maxScore)
                : JsonValue.JsonNull.INSTANCE);
        List<JsonValue> rendered = new ArrayList<>();
        int rank = parsed.from();
        for (Hit hit : result.hits()) {
            JsonObjectBuilder h = JsonObjectBuilder.object().put("_index", hit.index());
            if (!parsed.noStoredFields()) {
                h.put("_id", hit.id());
            }
            if (metadata.version()) {
                h.put("_version", hit.version().version());
            }
            if (metadata.seqNoPrimaryTerm()) {
                h.put("_seq_no", hit.version().seqNo()).put("_primary_term", hit.version().primaryTerm());
            }
            h.put("_score", score(hit.score()));
            hit.routing().ifPresent(r -> h.put("_routing", r));
            if (parsed.rrf().isPresent()) {
                h.put("_rank", ++rank);
            }
            io.qdrant.esgateway.domain.index.Mappings hitMappings = result.mappings().get(hit.index());
            if (hitMappings != null && !parsed.noStoredFields()) {
                // the fields whose values ignore_above or ignore_malformed left out, as ES's _ignored metadata
                List<String> ignored = DocumentParser.ignoredFields(hitMappings, hit.source());
                if (!ignored.isEmpty()) {
                    h.put("_ignored", new JsonArray(ignored.stream().<JsonValue>map(JsonValue.JsonString::new)
                            .toList()));
                }
            }
            boolean sourceHidden = hitMappings != null && hitMappings.root().sourceDisabled();
            // an index without _source shows none, and the fields read from it find nothing
            JsonObject shown = hitMappings == null ? hit.source()
                    : sourceHidden ? JsonObject.of() : SourceFilter.stored(hitMappings, hit.source());
            if (parsed.source().fetch() && !sourceHidden) {
                h.put("_source", parsed.source().apply(shown));
            }
            Map<String, List<JsonValue>> fields = new LinkedHashMap<>();
            if (!parsed.fields().isEmpty() || !parsed.docvalueFields().isEmpty()) {
                io.qdrant.esgateway.domain.index.Mappings mappings = hitMappings;
                fields.putAll(FieldValues.fields(hit.index(), shown, mappings, parsed.fields(), hit.routing()));
                try {
                    FieldValues.docValueFields(hit.index(), hit.source(), mappings, parsed.docvalueFields())
                            .forEach(fields::putIfAbsent);
                } catch (GatewayException e) {
                    // ES fails the fetch phase of that shard: a search_phase_execution_exception
                    throw GatewayException.allShardsFailed(List.of(new GatewayException.ShardFailure(hit.index(), e)));
                }
            }
            fields.putAll(hit.scriptFields());
            if (!fields.isEmpty()) {
                JsonObjectBuilder f = JsonObjectBuilder.object();
                fields.forEach((name, values) -> f.put(name, new JsonArray(values)));
                h.put("fields", f.build());
            }
            if (!hit.highlight().isEmpty()) {
                // ES's hit order: _index, _id, _score, _source, highlight, sort
                JsonObjectBuilder highlight = JsonObjectBuilder.object();
                hit.highlight().forEach((field, fragments) -> highlight.put(field,
                        new JsonArray(fragments.stream().<JsonValue>map(JsonValue.JsonString::new).toList())));
                h.put("highlight", highlight.build());
            }
            if (!parsed.sort().isEmpty()) {
                h.put("sort", new JsonArray(hit.sort()));
            }
            rendered.add(h.build());
        }
        hits.put("hits", new JsonArray(rendered));
        JsonObjectBuilder out = JsonObjectBuilder.object();
        scrollId.ifPresent(id -> out.put("_scroll_id", id));
        out.put("took", (System.nanoTime() - start) / 1_000_000)
                .put("timed_out", io.qdrant.esgateway.domain.search.SearchDeadline.timedOutHere())
                .put("_shards", shards(result.indices(), result.failures()))
                .put("hits", hits);
        result.aggregations().ifPresent(a -> {
            io.qdrant.esgateway.domain.aggregation.AggregationTree tree =
                    io.qdrant.esgateway.domain.aggregation.AggregationTree.of(body);
            out.put("aggregations", AggregationMeta.of(tree).apply(
                    io.qdrant.esgateway.domain.aggregation.BucketPipelines.of(tree).apply(
                            io.qdrant.esgateway.domain.aggregation.BucketLimit.check(a.render(typedKeys),
                                    parsed.aggregations()), typedKeys, id -> {
                                throw GatewayException.unsupported("a stored script ([id]) in a pipeline aggregation");
                            }), typedKeys));
        });
        return out.build();
    }

    private EsResponse count(EsRequest request) {
        Optional<Query> query = Optional.empty();
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), m -> GatewayException.parse(m), "count body");
            for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
                if (!e.getKey().equals("query")) {
                    throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.PARSING,
                            "request does not support [" + e.getKey() + "]");
                }
                query = Optional.of(QueryDsl.parse(e.getValue()));
            }
        }
        if (request.param("q").isPresent()) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String p : List.of("q", "df", "default_operator", "lenient")) {
                request.param(p).ifPresent(v -> params.put(p, v));
            }
            query = SearchRequestParser.parse(Optional.empty(), params).query();
        }
        if (request.param("min_score").isPresent() || request.param("terminate_after").isPresent()) {
            throw GatewayException.unsupported("[min_score] and [terminate_after] on _count");
        }
        if (!cached) {
            CountResult result = search.count(target(request), query, Routes.indexOptions(request, true));
            return EsResponse.ok(JsonObjectBuilder.object().put("count", result.count())
                    .put("_shards", shards(result.indices())).build());
        }
        String target = target(request);
        io.qdrant.esgateway.domain.index.CatalogView.Options options = Routes.indexOptions(request, true);
        Optional<Query> parsed = query;
        Supplier<JsonValue> compute = () -> {
            CountResult result = search.count(target, parsed, options);
            return JsonObjectBuilder.object().put("count", result.count())
                    .put("_shards", shards(result.indices())).build();
        };
        Map<String, String> key = new LinkedHashMap<>();
        for (String p : List.of("q", "df", "default_operator", "lenient")) {
            request.param(p).ifPresent(v -> key.put(p, v));
        }
        return EsResponse.ok(caching.read(target, options, normalised("count", request.body(), key), compute,
                answers));
    }

    private static String target(EsRequest request) {
        return request.optionalPathParam("index").orElse("_all");
    }

    /** {@code _shards} of a search: one shard per index; the failed ones listed as Elasticsearch lists them. */
    private static JsonObjectBuilder shards(int indices, List<GatewayException.ShardFailure> failures) {
        JsonObjectBuilder out = JsonObjectBuilder.object().put("total", indices)
                .put("successful", indices - failures.size()).put("skipped", 0).put("failed", failures.size());
        if (!failures.isEmpty()) {
            List<JsonValue> list = new ArrayList<>();
            failures.forEach(f -> list.add(ErrorBodies.shardFailure(f)));
            out.put("failures", new JsonArray(list));
        }
        return out;
    }

    private static JsonObjectBuilder shards(int indices) {
        return JsonObjectBuilder.object().put("total", indices).put("successful", indices).put("skipped", 0)
                .put("failed", 0);
    }

    /**
     * A score as Elasticsearch writes it: the float's shortest decimal ({@code 3.9751306}, not the double expansion
     * {@code 3.975130558013916}, which a client would read as another double).
     */
    private static JsonValue score(float score) {
        return Float.isNaN(score) ? JsonValue.JsonNull.INSTANCE
                : new JsonValue.JsonNumber(Double.parseDouble(Float.toString(score)));
    }
}
