package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.script.Script;
import java.util.Optional;

/** The scripted queries: {@code script_score}. */
final class ScriptQueries {
    private ScriptQueries() {
    }

    static Query scriptScore(JsonValue body) {
        DslObject o = new DslObject("script_score", body);
        Query query = QueryDsl.parse(o.take("query").orElseThrow(
                () -> GatewayException.illegalArgument("Required [query]")));
        JsonValue scriptJson = o.take("script").orElseThrow(
                () -> GatewayException.illegalArgument("Required [script]"));
        if (!(scriptJson instanceof JsonValue.JsonObject)) {
            // unlike the other places a script goes, script_score takes no string shorthand
            throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script_score] script doesn't support values of"
                    + " type: " + (scriptJson instanceof JsonValue.JsonString ? "VALUE_STRING"
                    : scriptJson.tokenName()));
        }
        Script script = Script.parse(scriptJson);
        Optional<Float> minScore = o.floatValue("min_score");
        float boost = o.boost();
        o.done();
        // compiled per index when the query runs: a compile error fails each index, as in Elasticsearch; a stored
        // script's source (null here) is read when the search starts
        return new Query.ScriptScore(query, script, script.source().orElse(null), minScore, boost);
    }
}
