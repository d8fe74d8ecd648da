package io.qdrant.esgateway.bench;

import java.util.List;

/**
 * One workload: a fixed, seeded request set whose answers are checked with {@link #shape}. The write cycles and the
 * bulk ingest have no fixed set (their requests depend on the client and the step); {@link Runner} drives them.
 *
 * @param name     short id (JSON, chart)
 * @param title    what it measures (report)
 * @param kind     how it is driven
 * @param shape    what is checked in each answer (read workloads)
 * @param requests the fixed request set (read workloads), cycled through by the clients
 * @param referenceRequests what the reference engine is sent instead, request by request, when it cannot run the
 *                 request itself but has its own request with the same answer (empty: the same requests)
 */
public record Workload(String name, String title, Kind kind, Answers.Shape shape, List<Request> requests,
                       List<Request> referenceRequests) {

    public Workload(String name, String title, Kind kind, Answers.Shape shape, List<Request> requests) {
        this(name, title, kind, shape, requests, List.of());
    }

    /** The same workload with the reference engine's requests (what a native engine is measured on). */
    public Workload asReference() {
        return referenceRequests.isEmpty() ? this : new Workload(name, title, kind, shape, referenceRequests);
    }

    /** The requests the reference engine answers to give the expected answers. */
    public List<Request> forReference() {
        return referenceRequests.isEmpty() ? requests : referenceRequests;
    }

    /** How a workload is driven. */
    public enum Kind {
        /** Bulk ingest of the whole corpus into a fresh index, until every document is searchable. */
        INGEST,
        /** Requests from the fixed set, each answer compared with the reference engine's. */
        READ,
        /** Index one document (no refresh), then GET it: the source must come back (real-time get). */
        WRITE_THEN_READ,
        /** Index one document with {@code refresh=true}, then {@code _count} this client's documents: exact. */
        WRITE_THEN_COUNT,
        /** Scroll the whole corpus index in pages ({@link ScrollWalk}): every document exactly once. */
        SCROLL
    }

    public static Workload special(String name, String title, Kind kind) {
        return new Workload(name, title, kind, Answers.Shape.COUNT, List.of());
    }
}
