package io.qdrant.esgateway.bench;

/** What became of a cell: timed and every answer right, or why it was not timed. */
public enum Status {
    /** Every checked answer equalled the expected one; the timings count. */
    VALID,
    /** At least one answer differed from the expected one: reported, never timed. */
    INVALID,
    /** The engine (or the reference engine) refused the request with a 4xx: the feature is missing there. */
    UNSUPPORTED,
    /** A 5xx, a timeout or a broken connection. */
    ERROR,
    /** Not measured by design in this mode (e.g. writes against the canned Qdrant responder, which replays reads). */
    SKIPPED
}
