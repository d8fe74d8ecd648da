package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The {@code wrapper} query: another query given as base64-encoded JSON ({@code {"wrapper": {"query": "eyJ0…"}}}),
 * as Spring Data Elasticsearch sends its criteria and string queries. The decoded query is parsed as any other.
 */
final class WrapperQueries {
    private WrapperQueries() {
    }

    static Query wrapper(JsonValue body) {
        DslObject o = new DslObject("wrapper", body);
        String encoded = o.string("query")
                .orElseThrow(() -> DslObject.parsing("wrapper query has no [query] specified"));
        o.done();
        byte[] decoded;
        try {
            decoded = Base64.getMimeDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw DslObject.parsing("[wrapper] failed to parse field [query]: " + e.getMessage());
        }
        if (decoded.length == 0) {
            throw DslObject.parsing("query cannot be empty");
        }
        return QueryDsl.parse(Json.parse(new String(decoded, StandardCharsets.UTF_8)));
    }
}
