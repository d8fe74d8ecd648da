package io.qdrant.esgateway.domain.script;

import java.util.List;
import java.util.Map;

/** Where a script runs, and so which variables it sees (by name, with their static types). */
public enum ScriptContext {
    /** {@code _update}, bulk updates, {@code _update_by_query}: {@code ctx} and {@code params}. */
    UPDATE(List.of("params", "ctx"), List.of(Type.MAP, Type.MAP), Map.of()),
    /** {@code script_score}: {@code params}, {@code doc} and {@code _score}. */
    SCORE(List.of("params", "doc", "_score"), List.of(Type.MAP, Type.MAP, Type.DOUBLE), ScoreFunctions.ALL);

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
