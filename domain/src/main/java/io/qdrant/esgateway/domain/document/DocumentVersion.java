package io.qdrant.esgateway.domain.document;

/**
 * The version triple Elasticsearch reports for every document write: the per-document {@code _version} (1 for a
 * new document, +1 per write, kept across a delete while the tombstone lives), and the per-index sequence number
 * and primary term that order all writes of the index.
 */
public record DocumentVersion(long version, long seqNo, long primaryTerm) {
    /** The gateway never fails over between primaries, so the term of every write is 1, as on a fresh ES index. */
    public static final long PRIMARY_TERM = 1;
}
