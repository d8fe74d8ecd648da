package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The rules that decide whether a write may happen given the document's current state, with Elasticsearch's
 * {@code version_conflict_engine_exception} messages.
 */
public final class Versioning {
    private Versioning() {
    }

    /** Optimistic concurrency: {@code if_seq_no} and {@code if_primary_term} must both be given, or neither. */
    public record Condition(OptionalLong ifSeqNo, OptionalLong ifPrimaryTerm) {
        public static final Condition NONE = new Condition(OptionalLong.empty(), OptionalLong.empty());

        public Condition {
            if (ifSeqNo.isPresent() != ifPrimaryTerm.isPresent()) {
                throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, ifSeqNo.isPresent()
                        ? "Validation Failed: 1: ifSeqNo is set, but primary term is [0];"
                        : "Validation Failed: 1: ifSeqNo is unassigned, but primary term is [" + ifPrimaryTerm.getAsLong()
                        + "];");
            }
            if (ifSeqNo.isPresent() && ifSeqNo.getAsLong() < 0) {
                throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                        "Validation Failed: 1: sequence number must be non negative. got [" + ifSeqNo.getAsLong() + "].;");
            }
            if (ifPrimaryTerm.isPresent() && ifPrimaryTerm.getAsLong() <= 0) {
                throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                        "Validation Failed: 1: primary term must be positive. got [" + ifPrimaryTerm.getAsLong() + "];");
            }
        }

        public boolean isSet() {
            return ifSeqNo.isPresent();
        }
    }

    /** Throws a conflict unless {@code current} has exactly the required sequence number and primary term. */
    public static void check(IndexMetadata index, String id, Optional<StoredDocument> current, Condition condition) {
        if (!condition.isSet()) {
            return;
        }
        long seqNo = condition.ifSeqNo().getAsLong();
        long term = condition.ifPrimaryTerm().getAsLong();
        String required = "[" + id + "]: version conflict, required seqNo [" + seqNo + "], primary term [" + term
                + "]. ";
        if (current.isEmpty()) {
            throw conflict(index, required + "but no document was found");
        }
        DocumentVersion v = current.get().version();
        if (v.seqNo() != seqNo || v.primaryTerm() != term) {
            throw conflict(index, required + "current document has seqNo [" + v.seqNo() + "] and primary term ["
                    + v.primaryTerm() + "]");
        }
    }

    /** {@code _create} and {@code op_type=create}: the document must not exist. */
    public static void checkAbsent(IndexMetadata index, String id, Optional<StoredDocument> current) {
        current.ifPresent(doc -> {
            throw conflict(index, "[" + id + "]: version conflict, document already exists (current version ["
                    + doc.version().version() + "])");
        });
    }

    public static GatewayException conflict(IndexMetadata index, String reason) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", index.uuid());
        meta.put("shard", "0");
        meta.put("index", index.name());
        return new GatewayException(ErrorKind.VERSION_CONFLICT, reason, meta, null);
    }

    public static GatewayException documentMissing(IndexMetadata index, String id) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", index.uuid());
        meta.put("shard", "0");
        meta.put("index", index.name());
        return new GatewayException(ErrorKind.DOCUMENT_MISSING, "[" + id + "]: document missing", meta, null);
    }
}
