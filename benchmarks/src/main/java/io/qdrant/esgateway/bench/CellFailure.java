package io.qdrant.esgateway.bench;

/** Why a cell stops: a wrong answer, a refusal (4xx) or an error; the first one wins and ends the cell early. */
public final class CellFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Status status;

    public CellFailure(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public Status status() {
        return status;
    }

    /** A non-2xx answer: 4xx means the engine does not support the request, anything else is an error. */
    public static CellFailure of(Request request, Http.Raw raw) {
        Status status = raw.status() >= 400 && raw.status() < 500 ? Status.UNSUPPORTED : Status.ERROR;
        return new CellFailure(status, raw.error() + " for " + request);
    }
}
