package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import io.qdrant.esgateway.domain.query.dsl.VectorQueries;
import io.qdrant.esgateway.domain.sort.SortParser;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a {@code _search} (or {@code _count}) body and the search URL parameters into a {@link SearchRequest}, as
 * Elasticsearch does: URL parameters ({@code q}, {@code size}, {@code from}, {@code sort}, {@code _source*},
 * {@code track_total_hits}, {@code track_scores}) override the body. Unknown body keys are ES's
 * {@code parsing_exception}; keys ES has and the gateway does not implement are named in a 400.
 */
public final class SearchRequestParser {
    /** Search body sections ES has that the gateway does not implement (yet), rejected by name. */
    private static final Set<String> UNSUPPORTED = Set.of("suggest", "rescore",
            "collapse", "indices_boost", "runtime_mappings", "pit", "slice",
            "profile", "terminate_after", "stats", "ext",
            "explain", "sub_searches", "point_in_time");

    private SearchRequestParser() {
    }

    public static SearchRequest parse(Optional<JsonValue> body, Map<String, String> params) {
        Optional<Query> query = Optional.empty();
        List<Query.Knn> knn = new ArrayList<>();
        int from = 0;
        int size = SearchRequest.DEFAULT_SIZE;
        boolean sizeGiven = false;
        List<SortSpec> sort = List.of();
        Optional<List<JsonValue>> searchAfter = Optional.empty();
        SourceFilter source = SourceFilter.ALL;
        TrackTotalHits track = TrackTotalHits.DEFAULT;
        boolean trackScores = false;
        Optional<Float> minScore = Optional.empty();
        Optional<Query> postFilter = Optional.empty();
        Optional<HighlightSpec> highlight = Optional.empty();
        JsonValue knnSection = null;
        List<FieldValues.Request> fields = List.of();
        List<FieldValues.Request> docvalueFields = List.of();
        Optional<List<String>> storedFields = Optional.empty();
        List<ScriptField> scriptFields = List.of();
        boolean sourceGiven = false;
        Map<String, Aggregation> aggregations = Map.of();
        JsonValue retrieverSection = null;
        JsonValue rankSection = null;
        boolean queryGiven = false;
        boolean aggregationsGiven = false;

        if (body.isPresent()) {
            JsonObject root = JsonReads.object(body.get(), SearchRequestParser::parsing, "search body");
            for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
                JsonValue v = e.getValue();
                switch (e.getKey()) {
                    case "query" -> {
                        query = Optional.of(QueryDsl.parse(v));
                        queryGiven = true;
                    }
                    case "retriever" -> retrieverSection = v;
                    case "rank" -> rankSection = v;
                    case "from" -> from = integer("from", v);
                    case "size" -> {
                        size = integer("size", v);
                        sizeGiven = true;
                    }
                    case "sort" -> sort = SortParser.parse(v);
                    case "search_after" -> searchAfter = Optional.of(v instanceof JsonArray a ? a.elements()
                            : List.of(v));
                    case "_source" -> {
                        source = SourceFilter.fromJson(v);
                        sourceGiven = true;
                    }
                    case "track_total_hits" -> track = trackTotalHits(v);
                    case "track_scores" -> trackScores = JsonReads.bool(v).orElseThrow(
                            () -> parsing("[track_scores] must be a boolean"));
                    case "min_score" -> minScore = Optional.of(number("min_score", v));
                    case "aggs", "aggregations" -> {
                        if (aggregationsGiven) {
                            throw parsing("Found two aggregation definitions: [aggs] and [aggregations]");
                        }
                        aggregations = AggregationParser.parse(v);
                        aggregationsGiven = true;
                    }
                    case "post_filter" -> postFilter = Optional.of(QueryDsl.parse(v));
                    case "knn" -> knnSection = v;
                    case "fields" -> fields = FieldValues.parse("fields", v);
                    case "stored_fields" -> storedFields = Optional.of(storedFields(v));
                    case "docvalue_fields" -> docvalueFields = FieldValues.parse("docvalue_fields", v);
                    case "script_fields" -> scriptFields = ScriptField.parse(v);
                    case "highlight" -> highlight = Optional.of(HighlightParser.parse(v));
                    // checked as ES checks it; honoured by the caller (SearchDeadline)
                    case "timeout" -> SearchTimeout.parse(v);
                    // checked here, read for the hits by HitMetadata
                    case "version", "seq_no_primary_term" -> HitMetadata.bodyFlag(e.getKey(), v);
                    default -> throw UNSUPPORTED.contains(e.getKey())
                            ? GatewayException.unsupported("[" + e.getKey() + "] in the search body")
                            : GatewayException.parsingAt("Unknown key for a " + v.tokenName() + " in [" + e.getKey()
                                    + "].", v.at());
                }
            }
        }
        if (params.containsKey("timeout")) {
            SearchTimeout.parse(params.get("timeout"));
        }
        if (params.containsKey("q")) {
            query = Optional.of(new Query.QueryString(params.get("q"),
                    params.containsKey("df") ? List.of(new Query.BoostedField(params.get("df"), 1f)) : List.of(),
                    params.containsKey("default_operator")
                            ? ("and".equalsIgnoreCase(params.get("default_operator")) ? Query.Operator.AND
                            : Query.Operator.OR) : Query.Operator.OR,
                    false, "true".equals(params.get("lenient")), false, 1f));
        }
        if (params.containsKey("from")) {
            from = integerParam("from", params.get("from"));
        }
        if (params.containsKey("size")) {
            size = integerParam("size", params.get("size"));
            sizeGiven = true;
        }
        if (params.containsKey("sort")) {
            sort = SortParser.parseUrl(params.get("sort"));
        }
        if (params.containsKey("_source") || params.containsKey("_source_includes")
                || params.containsKey("_source_excludes")) {
            sourceGiven = true;
            source = SourceFilter.fromParams(Optional.ofNullable(params.get("_source")),
                    Optional.ofNullable(params.get("_source_includes")),
                    Optional.ofNullable(params.get("_source_excludes")));
        }
        if (params.containsKey("track_total_hits")) {
            String t = params.get("track_total_hits");
            track = trackTotalHits(t.equals("true") || t.equals("false") ? new JsonBool(Boolean.parseBoolean(t))
                    : new JsonString(t));
        }
        if (params.containsKey("track_scores")) {
            trackScores = !"false".equals(params.get("track_scores"));
        }
        if (params.containsKey("stored_fields")) {
            storedFields = Optional.of(List.of(params.get("stored_fields").split(",")));
        }
        if (storedFields.isPresent() && !sourceGiven) {
            // ES: asking for stored fields means no _source unless it is asked for too (the gateway stores none
            // but the metadata, so the named fields themselves come back empty)
            source = SourceFilter.NONE;
        }
        if (from < 0) {
            throw GatewayException.illegalArgument("[from] parameter cannot be negative but was [" + from + "]");
        }
        if (size < 0) {
            throw GatewayException.illegalArgument("[size] parameter cannot be negative, found [" + size + "]");
        }
        if (knnSection != null) {
            int defaultK = sizeGiven ? size : SearchRequest.DEFAULT_SIZE;
            List<JsonValue> sections = knnSection instanceof JsonArray a ? a.elements() : List.of(knnSection);
            for (JsonValue section : sections) {
                knn.add(VectorQueries.knn(section, Optional.of(defaultK)));
            }
        }
        Optional<Rrf> rrf = Optional.empty();
        if (retrieverSection != null) {
            Map<String, Boolean> clashes = new java.util.LinkedHashMap<>();
            clashes.put("query", queryGiven);
            clashes.put("knn", knnSection != null);
            clashes.put("rank", rankSection != null);
            clashes.put("sort", !sort.isEmpty());
            clashes.put("search_after", searchAfter.isPresent());
            clashes.put("highlight", highlight.isPresent());
            clashes.forEach((key, given) -> {
                if (given) {
                    throw validation("cannot specify [retriever] and [" + key + "]");
                }
            });
            switch (RrfParser.retriever(retrieverSection, sizeGiven ? size : SearchRequest.DEFAULT_SIZE)) {
                case RrfParser.Parsed.AsQuery q -> query = q.query();
                case RrfParser.Parsed.AsKnn k -> knn.add(k.knn());
                case RrfParser.Parsed.Fusion f -> rrf = Optional.of(f.rrf());
            }
        } else if (rankSection != null) {
            if (!sort.isEmpty() || searchAfter.isPresent() || highlight.isPresent()) {
                throw validation("[rank] cannot be used with [sort], [search_after] or [highlight]");
            }
            rrf = Optional.of(RrfParser.rank(rankSection, query, knn, size));
            query = Optional.empty();
            knn.clear();
        }
        if (searchAfter.isPresent()) {
            if (from > 0) {
                throw validation("[from] parameter must be set to 0 when [search_after] is used");
            }
        }
        return new SearchRequest(query, knn, from, size, sort, searchAfter, source, track, trackScores, minScore,
                postFilter, highlight, fields, docvalueFields, storedFields, aggregations, rrf, scriptFields);
    }

    private static List<String> storedFields(JsonValue v) {
        List<String> out = new ArrayList<>();
        for (JsonValue e : v instanceof JsonArray a ? a.elements() : List.of(v)) {
            out.add(JsonReads.text(e).orElseThrow(() -> parsing("[stored_fields] must be a string or an array")));
        }
        return out;
    }

    private static TrackTotalHits trackTotalHits(JsonValue v) {
        if (v instanceof JsonBool b) {
            return b.value() ? new TrackTotalHits.Exact() : new TrackTotalHits.Disabled();
        }
        long n = JsonReads.integer(v).orElseThrow(() -> parsing("[track_total_hits] must be a boolean or an integer"));
        if (n < 0) {
            throw validation("[track_total_hits] parameter must be positive or equals to -1, got " + n);
        }
        return n >= Integer.MAX_VALUE ? new TrackTotalHits.Exact() : new TrackTotalHits.UpTo((int) n);
    }

    private static int integer(String key, JsonValue v) {
        return JsonReads.integer(v).map(Long::intValue).orElseThrow(() -> parsing("[" + key
                + "] failed to parse field: expected an integer, got [" + v.tokenName() + "]"));
    }

    private static int integerParam(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("Failed to parse int parameter [" + key + "] with value [" + value
                    + "]");
        }
    }

    private static float number(String key, JsonValue v) {
        try {
            return Float.parseFloat(JsonReads.text(v).orElseThrow());
        } catch (RuntimeException e) {
            throw parsing("[" + key + "] must be a number");
        }
    }

    static GatewayException parsing(String reason) {
        return new GatewayException(ErrorKind.PARSING, reason);
    }

    private static GatewayException validation(String what) {
        return new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: " + what + ";");
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
