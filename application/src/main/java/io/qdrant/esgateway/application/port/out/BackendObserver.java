package io.qdrant.esgateway.application.port.out;

/**
 * Told about every call a document backend makes to a remote service (each HTTP attempt to Qdrant, retries
 * included): what it was, how it ended, how many bytes went each way and how long it took. The composition root turns
 * these into metrics ({@code qeg_backend_requests_total}, {@code qeg_backend_request_seconds},
 * {@code qeg_backend_bytes_received_total}, {@code qeg_backend_bytes_sent_total}); an embedded backend never calls it.
 *
 * <p>Implementations must be cheap and thread-safe: they run on the request path, once per backend call. A backend
 * tells its observer on the thread that made the call, as soon as the call ended (so the call spans the last
 * {@code nanos} before the observer is told: the HTTP adapter takes that out of the request's own time).
 */
@FunctionalInterface
public interface BackendObserver {
    BackendObserver NONE = call -> {
    };

    void called(Call call);

    /** Tells this observer, then {@code next}. */
    default BackendObserver andThen(BackendObserver next) {
        return call -> {
            called(call);
            next.called(call);
        };
    }

    /**
     * One backend call.
     *
     * @param backend       the backend's name, e.g. {@code qdrant}
     * @param operation     a bounded label naming the call, e.g. {@code POST /collections/{name}/points/scroll}
     *                      (never a collection name, id or value)
     * @param outcome       the HTTP status as a number ({@code 200}, {@code 404}), or {@code timeout} / {@code error}
     *                      when no answer came
     * @param bytesSent     request body bytes
     * @param bytesReceived response body bytes (0 without an answer)
     * @param nanos         from sending the request to the whole answer being read (waiting for a free connection
     *                      not included)
     */
    record Call(String backend, String operation, String outcome, long bytesSent, long bytesReceived, long nanos) {
    }
}
