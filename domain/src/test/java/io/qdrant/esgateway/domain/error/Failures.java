package io.qdrant.esgateway.domain.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The gateway error a call throws, for assertions on its kind and exact reason. */
public final class Failures {
    private Failures() {
    }

    /** Runs {@code call}, asserts it throws a {@link GatewayException} and returns it. */
    public static GatewayException failure(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("expected a GatewayException").isInstanceOf(GatewayException.class);
        return (GatewayException) thrown;
    }

    /** Runs {@code call}, asserts it throws a {@link GatewayException} of {@code kind} and returns it. */
    public static GatewayException failure(ErrorKind kind, ThrowingCallable call) {
        GatewayException e = failure(call);
        assertThat(e.kind()).as("kind of [%s]", e.getMessage()).isEqualTo(kind);
        return e;
    }
}
