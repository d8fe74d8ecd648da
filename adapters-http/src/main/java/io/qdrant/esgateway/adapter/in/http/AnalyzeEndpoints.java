package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET|POST /_analyze} and {@code /{index}/_analyze}: the tokens an analyzer, a field, a normalizer or a
 * tokenizer with filters gives for a text, in Elasticsearch's shape.
 *
 * <pre>
 * curl -XPOST localhost:9200/_analyze -H 'Content-Type: application/json' \
 *   -d '{"analyzer":"english","text":"Running shoes"}'
 * </pre>
 */
final class AnalyzeEndpoints {
    private static final String PARAMS = "index";
    private final IndexAdministration admin;

    AnalyzeEndpoints(IndexAdministration admin) {
        this.admin = admin;
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_analyze", "indices.analyze", PARAMS, true,
                        r -> analyze(r, r.param("index"))))
                .add(route("GET,POST", "/{index}/_analyze", "indices.analyze", PARAMS, true,
                        r -> analyze(r, Optional.of(r.pathParam("index")))));
    }

    private EsResponse analyze(EsRequest request, Optional<String> index) {
        JsonValue body = request.body().orElseThrow(() -> GatewayException.parse(
                "request body or source parameter is required"));
        AnalyzeRequest parsed = AnalyzeRequest.parse(body);
        if (parsed.explain()) {
            return EsResponse.ok(JsonObjectBuilder.object().put("detail",
                    AnalyzeDetailJson.render(admin.explainAnalyze(index, parsed))).build());
        }
        List<AnalyzedToken> tokens = admin.analyze(index, parsed);
        List<JsonValue> out = new ArrayList<>(tokens.size());
        for (AnalyzedToken t : tokens) {
            out.add(token(t).build());
        }
        return EsResponse.ok(JsonObjectBuilder.object().put("tokens", new JsonValue.JsonArray(out)).build());
    }

    /** A token's ES fields ({@code positionLength} only when above 1). */
    static JsonObjectBuilder token(AnalyzedToken t) {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("token", t.token())
                .put("start_offset", t.startOffset()).put("end_offset", t.endOffset()).put("type", t.type())
                .put("position", t.position());
        if (t.positionLength() > 1) {
            b.put("positionLength", t.positionLength());
        }
        return b;
    }
}
