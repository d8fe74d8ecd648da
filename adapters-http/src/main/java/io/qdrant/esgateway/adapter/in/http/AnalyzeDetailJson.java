package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.analysis.AnalyzeDetail;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/** Elasticsearch's {@code detail} object of {@code _analyze} with {@code explain: true}. */
final class AnalyzeDetailJson {
    private AnalyzeDetailJson() {
    }

    static JsonValue render(AnalyzeDetail detail) {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("custom_analyzer", detail.customAnalyzer());
        detail.analyzer().ifPresent(a -> b.put("analyzer", tokens(a)));
        if (detail.customAnalyzer()) {
            List<JsonValue> chars = new ArrayList<>();
            for (AnalyzeDetail.CharFiltered c : detail.charFilters()) {
                chars.add(JsonObjectBuilder.object().put("name", c.name()).put("filtered_text", new JsonValue.JsonArray(
                        c.filteredText().stream().<JsonValue>map(JsonValue.JsonString::new).toList())).build());
            }
            b.put("charfilters", new JsonValue.JsonArray(chars));
            detail.tokenizer().ifPresent(t -> b.put("tokenizer", tokens(t)));
            List<JsonValue> filters = new ArrayList<>();
            for (AnalyzeDetail.TokenList f : detail.tokenFilters()) {
                filters.add(tokens(f));
            }
            b.put("tokenfilters", new JsonValue.JsonArray(filters));
        }
        return b.build();
    }

    private static JsonValue tokens(AnalyzeDetail.TokenList list) {
        List<JsonValue> tokens = new ArrayList<>();
        for (AnalyzeDetail.DetailedToken t : list.tokens()) {
            JsonObjectBuilder token = AnalyzeEndpoints.token(t.token());
            t.attributes().forEach(token::put);
            tokens.add(token.build());
        }
        return JsonObjectBuilder.object().put("name", list.name()).put("tokens", new JsonValue.JsonArray(tokens))
                .build();
    }
}
