package io.qdrant.esgateway.domain.script;

/**
 * A failure raised by the interpreter itself with the Elasticsearch type name Painless's Java exception would get
 * ({@code illegal_argument_exception}, {@code class_cast_exception}, {@code painless_error}, …).
 */
final class PainlessRuntimeError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final String esType;

    PainlessRuntimeError(String esType, String reason) {
        super(reason, null, false, false);
        this.esType = esType;
    }

    static PainlessRuntimeError illegalArgument(String reason) {
        return new PainlessRuntimeError("illegal_argument_exception", reason);
    }

    static PainlessRuntimeError classCast(String reason) {
        return new PainlessRuntimeError("class_cast_exception", reason);
    }

    static PainlessRuntimeError nullPointer(String reason) {
        return new PainlessRuntimeError("null_pointer_exception", reason);
    }
}
