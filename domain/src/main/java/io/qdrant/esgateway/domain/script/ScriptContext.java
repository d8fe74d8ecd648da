package io.qdrant.esgateway.domain.script;

import java.util.List;

/** Where a script runs, and so which variables it sees (by name, with their static types). */
public enum ScriptContext {
    /** {@code _update}, bulk updates, {@code _update_by_query}: {@code ctx} and {@code params}. */
    UPDATE(List.of("params", "ctx"), List.of(Type.MAP, Type.MAP)),
    /** {@code script_score}: {@code params}, {@code doc} and {@code _score}. */
    SCORE(List.of("params", "doc", "_score"), List.of(Type.MAP, Type.MAP, Type.DOUBLE));

    final List<String> variables;
    final List<Type> types;

    ScriptContext(List<String> variables, List<Type> types) {
        this.variables = variables;
        this.types = types;
    }

    /** The variables a script of this context reads, in the order {@link PainlessScript#execute} takes them. */
    public List<String> variables() {
        return variables;
    }
}
