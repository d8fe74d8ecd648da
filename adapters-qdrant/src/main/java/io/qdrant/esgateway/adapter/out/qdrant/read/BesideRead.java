package io.qdrant.esgateway.adapter.out.qdrant.read;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * One read that goes on while the caller goes on with another (a search's exact count beside its page), so that the
 * two Qdrant calls overlap instead of adding up: either {@linkplain #start started on its own virtual thread}, or
 * {@linkplain #beside sent beside the caller's next call} ({@link io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient.Beside}: no thread; its answer read by
 * the joining thread). The caller {@link #join}s it before using
 * anything of its own work, and lets it {@linkplain #settle settle} first when its own work failed: the outcome is then
 * what running the read first would have given — the read's failure wins over the caller's.
 *
 * <p>The thread inherits the caller's inheritable thread locals (the request's backend-time attribution).
 */
public final class BesideRead<T> {
    private final CompletableFuture<T> result = new CompletableFuture<>();
    /** The beside form's result, read once by the joining thread (null: the thread form). */
    private final Supplier<T> answer;

    private BesideRead(Supplier<T> read, boolean thread) {
        if (thread) {
            this.answer = null;
            Thread.ofVirtual().name("qeg-qdrant-read").start(() -> run(read));
        } else {
            this.answer = read;
        }
    }

    public static <T> BesideRead<T> start(Supplier<T> read) {
        return new BesideRead<>(read, true);
    }

    /**
     * A read whose request goes beside the caller's next call: {@code result} gives its value (or throws its
     * failure) on the joining thread, once.
     */
    public static <T> BesideRead<T> beside(Supplier<T> result) {
        return new BesideRead<>(result, false);
    }

    private void run(Supplier<T> read) {
        try {
            result.complete(read.get());
        } catch (Throwable t) {
            result.completeExceptionally(t);
        }
    }

    /** The read's value, or its failure rethrown as it was thrown. */
    public T join() {
        if (answer != null && !result.isDone()) {
            run(answer);
        }
        try {
            return result.get();
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error err -> throw err;
                default -> throw new IllegalStateException(e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "interrupted while reading from Qdrant",
                    Map.of(), e);
        }
    }

    /**
     * After the caller's own work failed with {@code failure}: waits for the read and throws its failure if it failed
     * (as if it had run first), else {@code failure}.
     */
    public RuntimeException settle(RuntimeException failure) {
        join();
        return failure;
    }
}
