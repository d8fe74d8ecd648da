package io.qdrant.esgateway.domain.script;

import java.util.List;
import java.util.Map;

/** Where a script runs, and so which variables it sees (by name, with their static types). */
public enum ScriptContext {
    /** {@code _update}, bulk updates, {@code _update_by_query}: {@code ctx} and {@code params}. */
    UPDATE(List.of("params", "ctx"), List.of(Type.MAP, Type.MAP), Map.of()),
    /** {@code script_score}: {@code params}, {@code doc} and {@code _score}. */
    SCORE(List.of("params", "doc", "_score"), List.of(Type.MAP, Type.MAP, Type.DOUBLE), ScoreFunctions.ALL),
    /** {@code _script} sorts: {@code params} (with the document's {@code _source}), {@code doc} and {@code _score}. */
    SORT(List.of("params", "doc", "_score"), List.of(Type.MAP, Type.MAP, Type.DOUBLE), Map.of()),
    /** {@code script_fields}: {@code params} (with the document's {@code _source}) and {@code doc}. */
    FIELD(List.of("params", "doc"), List.of(Type.MAP, Type.MAP), Map.of()),
    /**
     * Scripts of aggregations: {@code params} (with the document's {@code _source}), {@code doc}, {@code _value} (the
     * field's value a value script maps) and {@code _score}.
     */
    AGGS(List.of("params", "doc", "_value", "_score"), List.of(Type.MAP, Type.MAP, Type.DEF, Type.DOUBLE), Map.of()),
    /** {@code bucket_script} and {@code bucket_selector}: {@code params} (with the bucket's values). */
    BUCKET(List.of("params"), List.of(Type.MAP), Map.of()),
    /** {@code scripted_metric}'s {@code init_script} and {@code combine_script}: {@code params} and {@code state}. */
    SCRIPTED_INIT(List.of("params", "state"), List.of(Type.MAP, Type.MAP), Map.of()),
    /** {@code scripted_metric}'s {@code map_script}: {@code params}, {@code doc}, {@code state} and {@code _score}. */
    SCRIPTED_MAP(List.of("params", "doc", "state", "_score"), List.of(Type.MAP, Type.MAP, Type.MAP, Type.DOUBLE),
            Map.of()),
    /** {@code scripted_metric}'s {@code combine_script}: {@code params} and {@code state}. */
    SCRIPTED_COMBINE(List.of("params", "state"), List.of(Type.MAP, Type.MAP), Map.of()),
    /** {@code scripted_metric}'s {@code reduce_script}: {@code params} and {@code states} (a list). */
    SCRIPTED_REDUCE(List.of("params", "states"), List.of(Type.MAP, Type.DEF), Map.of());

    final List<String> variables;
    final List<Type> types;
    /** The context's own functions, by {@code name/arity}; each receives the run's context as its receiver. */
    final Map<String, Api.Fn> functions;

    ScriptContext(List<String> variables, List<Type> types, Map<String, Api.Fn> functions) {
        this.variables = variables;
        this.types = types;
        this.functions = functions;
    }

    /** The variables a script of this context reads, in the order {@link PainlessScript#execute} takes them. */
    public List<String> variables() {
        return variables;
    }
}
