package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code _msearch}: NDJSON pairs of a header ({@code index}, index options) and a search body. Each search answers in
 * its slot with its {@code status}; a failing search puts its error there and the others still run. A malformed
 * header fails the whole request, as in Elasticsearch.
 *
 * <pre>
 * printf '{"index":"books"}\n{"query":{"match_all":{}}}\n{}\n{"size":0}\n' |
 *   curl -XPOST localhost:9200/_msearch -H 'Content-Type: application/x-ndjson' --data-binary @-
 * </pre>
 */
final class MultiSearchEndpoints {
    private static final String PARAMS = "max_concurrent_searches,rest_total_hits_as_int,typed_keys,search_type,"
            + "pre_filter_shard_size,ccs_minimize_roundtrips,max_concurrent_shard_requests," + Routes.INDEX_OPTIONS;
    private static final Set<String> HEADER_KEYS = Set.of("index", "indices", "search_type", "preference", "routing",
            "request_cache", "ignore_unavailable", "allow_no_indices", "expand_wildcards",
            "allow_partial_search_results", "ccs_minimize_roundtrips");

    private final SearchEndpoints searches;
    private final JsonCodec codec;

    MultiSearchEndpoints(SearchEndpoints searches, JsonCodec codec) {
        this.searches = searches;
        this.codec = codec;
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_msearch", "msearch", PARAMS, true, this::msearch))
                .add(route("GET,POST", "/{index}/_msearch", "msearch", PARAMS, true, this::msearch));
    }

    private record Item(String target, CatalogView.Options options, Optional<JsonValue> body) {
    }

    private EsResponse msearch(EsRequest request) {
        long start = System.nanoTime();
        request.param("search_type").filter(t -> !t.equals("query_then_fetch")).ifPresent(t -> {
            throw GatewayException.unsupported("[search_type=" + t + "]");
        });
        boolean totalAsInt = request.flag("rest_total_hits_as_int", false);
        boolean typedKeys = request.flag("typed_keys", false);
        CatalogView.Options defaults = Routes.indexOptions(request, true);
        List<Item> items = parse(request.rawBody(), request.optionalPathParam("index").orElse("_all"), defaults);
        List<JsonValue> responses = new ArrayList<>();
        for (Item item : items) {
            try {
                // a search on indices the caller may not read fails alone (ES's per-item authorization)
                String target = ItemAccess.searchable(item.target());
                JsonValue answer = searches.execute(target, item.body(), Map.of(), item.options(), totalAsInt,
                        typedKeys, System.nanoTime());
                JsonObjectBuilder b = JsonObjectBuilder.object();
                ((JsonObject) answer).members().forEach(b::put);
                responses.add(b.put("status", 200).build());
            } catch (GatewayException e) {
                EsResponse error = ErrorBodies.of(e);
                responses.add(error.json());
            }
        }
        return EsResponse.ok(JsonObjectBuilder.object()
                .put("took", (System.nanoTime() - start) / 1_000_000)
                .put("responses", new JsonArray(responses))
                .build());
    }

    private List<Item> parse(byte[] body, String defaultTarget, CatalogView.Options defaults) {
        String text = new String(body, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        List<Item> items = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String headerLine = lines.get(i).strip();
            int lineNumber = i + 1;
            i++;
            if (headerLine.isEmpty()) {
                continue;
            }
            JsonValue header;
            try {
                header = codec.parse(headerLine.getBytes(StandardCharsets.UTF_8));
            } catch (GatewayException e) {
                throw GatewayException.illegalArgument("Malformed header at line [" + lineNumber + "]: " + e.reason());
            }
            JsonObject h = JsonReads.object(header, m -> GatewayException.illegalArgument("msearch header at line ["
                    + lineNumber + "] must be an object"), "header");
            String target = defaultTarget;
            Map<String, String> options = new LinkedHashMap<>();
            for (Map.Entry<String, JsonValue> e : h.members().entrySet()) {
                if (!HEADER_KEYS.contains(e.getKey())) {
                    throw GatewayException.illegalArgument("key [" + e.getKey() + "] is not supported in the metadata"
                            + " section");
                }
                switch (e.getKey()) {
                    case "index", "indices" -> target = e.getValue() instanceof JsonArray a
                            ? String.join(",", a.elements().stream().map(v -> JsonReads.text(v).orElse("")).toList())
                            : JsonReads.text(e.getValue()).orElse(defaultTarget);
                    case "ignore_unavailable", "allow_no_indices" ->
                            options.put(e.getKey(), JsonReads.text(e.getValue()).orElse("false"));
                    case "search_type" -> {
                        if (!JsonReads.text(e.getValue()).orElse("").equals("query_then_fetch")) {
                            throw GatewayException.unsupported("[search_type] other than query_then_fetch in _msearch");
                        }
                    }
                    default -> {
                        // preference, routing, request_cache, expand_wildcards, …: no effect on one logical shard
                    }
                }
            }
            if (i >= lines.size()) {
                throw GatewayException.illegalArgument("The msearch request must be terminated by a newline [\\n]");
            }
            String bodyLine = lines.get(i).strip();
            i++;
            Optional<JsonValue> searchBody = bodyLine.isEmpty() ? Optional.empty()
                    : Optional.of(codec.parse(bodyLine.getBytes(StandardCharsets.UTF_8)));
            CatalogView.Options itemOptions = new CatalogView.Options(
                    options.containsKey("ignore_unavailable") ? "true".equals(options.get("ignore_unavailable"))
                            : defaults.ignoreUnavailable(),
                    options.containsKey("allow_no_indices") ? "true".equals(options.get("allow_no_indices"))
                            : defaults.allowNoIndices(), defaults.expandHidden(), defaults.expandOpen(),
                    defaults.expandClosed());
            items.add(new Item(target, itemOptions, searchBody));
        }
        if (items.isEmpty()) {
            throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: no requests added;");
        }
        return items;
    }
}
