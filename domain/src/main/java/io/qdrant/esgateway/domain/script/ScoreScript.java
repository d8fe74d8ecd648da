package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.List;
import java.util.Map;

/**
 * A compiled script over one document's doc values, bound to an index: a score script ({@code script_score}), whose
 * {@link #score} runs it for one document with {@code params}, {@code doc} (the document's doc values,
 * {@link DocReader}) and {@code _score} (the inner query's score) and returns its value as a double; or a sort or
 * field script ({@link ScriptContext#SORT}, {@link ScriptContext#FIELD}), whose {@link #value} also gives it the
 * document's {@code _source} as {@code params._source}. Failures are {@code script_exception}s.
 */
public final class ScoreScript {
    final Mappings mappings;
    final String index;
    private final PainlessScript compiled;
    private final Map<String, Object> params;
    private final ScriptContext context;
    private volatile QueryVector lastVector;

    /** A query vector parameter as floats, with its magnitude, converted once per script. */
    record QueryVector(Object param, float[] values, float magnitude) {
    }

    private ScoreScript(PainlessScript compiled, Map<String, Object> params, Mappings mappings, String index) {
        this(compiled, params, mappings, index, ScriptContext.SCORE);
    }

    private ScoreScript(PainlessScript compiled, Map<String, Object> params, Mappings mappings, String index,
                        ScriptContext context) {
        this.context = context;
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

    /**
     * Compiles {@code source} (the script's own, or its stored one's) in a doc-values context other than the score
     * one ({@link ScriptContext#SORT} or {@link ScriptContext#FIELD}).
     */
    public static ScoreScript compile(ScriptContext context, String source, Script script, Mappings mappings,
                                      String index) {
        if (context == ScriptContext.SCORE || context == ScriptContext.UPDATE) {
            throw new IllegalArgumentException("not a doc-values context: " + context);
        }
        return new ScoreScript(PainlessScript.compile(context, source), script.paramsForRun(), mappings, index,
                context);
    }

    /**
     * The value of a sort or field script for one document: {@code source} is its {@code _source} (the script reads
     * it as {@code params._source}), {@code score} its score ({@code _score} of a sort script).
     */
    public Object value(DocReader doc, double score, io.qdrant.esgateway.domain.json.JsonValue.JsonObject source) {
        return value(doc, score, source, null);
    }

    /**
     * The value of a script for one document; {@code value} is the {@code _value} of an aggregation's value script
     * (one of the field's values), null otherwise.
     */
    public Object value(DocReader doc, double score, io.qdrant.esgateway.domain.json.JsonValue.JsonObject source,
                        Object value) {
        ScoreDoc view = new ScoreDoc(this, doc);
        Map<String, Object> run = new java.util.HashMap<>(params);
        run.put("_source", ScriptValues.toScriptMap(source, true));
        return switch (context) {
            case SORT -> compiled.executeIn(view, run, view, score);
            case AGGS, SCRIPTED_MAP -> compiled.executeIn(view, run, view, value, score);
            default -> compiled.executeIn(view, run, view);
        };
    }

    /** The value of a sort script of type {@code number}: the script's value as a double. */
    public double number(DocReader doc, double score, io.qdrant.esgateway.domain.json.JsonValue.JsonObject source) {
        Object v = value(doc, score, source);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw compiled.returnCast(v, "double");
    }

    /** The value of a sort script of type {@code string}: the script's value, a string. */
    public String string(DocReader doc, double score, io.qdrant.esgateway.domain.json.JsonValue.JsonObject source) {
        Object v = value(doc, score, source);
        if (v instanceof String s) {
            return s;
        }
        throw compiled.returnCast(v, "java.lang.String");
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
