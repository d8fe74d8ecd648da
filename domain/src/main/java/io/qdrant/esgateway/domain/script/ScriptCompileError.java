package io.qdrant.esgateway.domain.script;

/** A script that does not compile: where, why, and the Elasticsearch type of the cause. */
final class ScriptCompileError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int offset;
    final String esType;

    ScriptCompileError(int offset, String reason) {
        this(offset, reason, "illegal_argument_exception");
    }

    ScriptCompileError(int offset, String reason, String esType) {
        super(reason, null, false, false);
        this.offset = offset;
        this.esType = esType;
    }
}
