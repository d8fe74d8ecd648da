package io.qdrant.esgateway.domain.script;

/** A script lambda bound to the frame it was created in; whitelisted methods that take functions call it. */
final class Lambda {
    private final Node.LambdaExpr code;
    private final Node.Frame frame;

    Lambda(Node.LambdaExpr code, Node.Frame frame) {
        this.code = code;
        this.frame = frame;
    }

    Object call(Object... args) {
        return code.invoke(frame, args);
    }

    @Override
    public String toString() {
        return "lambda";
    }
}
