package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.List;
import java.util.Map;

/**
 * A compiled score script ({@code script_score}) bound to an index: {@link #score} runs it for one document with
 * {@code params}, {@code doc} (the document's doc values, {@link DocReader}) and {@code _score} (the inner query's
 * score), and returns its value as a double. Failures are {@code script_exception}s.
 */
public final class ScoreScript {
    final Mappings mappings;
    final String index;
    private final PainlessScript compiled;
    private final Map<String, Object> params;
    private volatile QueryVector lastVector;

    /** A query vector parameter as floats, with its magnitude, converted once per script. */
    record QueryVector(Object param, float[] values, float magnitude) {
    }

    private ScoreScript(PainlessScript compiled, Map<String, Object> params, Mappings mappings, String index) {
        this.compiled = compiled;
        this.params = params;
        this.mappings = mappings;
        this.index = index;
    }

    /** Compiles {@code source} in the score context for an index with these mappings. */
    public static ScoreScript compile(String source, Script script, Mappings mappings, String index) {
        if (source == null) {
            throw GatewayException.unsupported("a stored script ([id]) in a score script of this request (inline"
                    + " [source] only; stored scripts are read by searches)");
        }
        return new ScoreScript(PainlessScript.compile(ScriptContext.SCORE, source), script.paramsForRun(), mappings,
                index);
    }

    /** The script's value for one document whose inner query scored {@code score}. */
    public double score(DocReader doc, double score) {
        ScoreDoc view = new ScoreDoc(this, doc);
        return compiled.executeDouble(view, params, view, score);
    }

    QueryVector queryVector(Object param) {
        QueryVector last = lastVector;
        if (last != null && last.param() == param) {
            return last;
        }
        if (!(param instanceof List<?> list)) {
            throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(param) + " to java.util.List");
        }
        float[] values = new float[list.size()];
        float norm = 0;
        for (int i = 0; i < values.length; i++) {
            Object v = list.get(i);
            if (!(v instanceof Number n)) {
                throw PainlessRuntimeError.classCast("Cannot cast " + Ops.typeName(v) + " to java.lang.Number");
            }
            values[i] = n.floatValue();
            norm += values[i] * values[i];
        }
        QueryVector q = new QueryVector(param, values, (float) Math.sqrt(norm));
        lastVector = q;
        return q;
    }

    /** Elasticsearch's error for a script score that is negative or NaN. */
    public static GatewayException invalidScore(float score, int doc) {
        return GatewayException.illegalArgument("script_score script returned an invalid score [" + score + "] for doc ["
                + doc + "]. Must be a non-negative score!");
    }
}
