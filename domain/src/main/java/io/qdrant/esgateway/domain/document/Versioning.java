package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    /** {@code version} when none is given: any version matches (ES's {@code Versions.MATCH_ANY}). */
    public static final long MATCH_ANY = -3;
    /** {@code version=-4}, internal versioning: the document must not exist (ES's {@code Versions.MATCH_DELETED}). */
    public static final long MATCH_DELETED = -4;

    /**
     * Elasticsearch's {@code version_type}: {@code internal} (the gateway counts versions), {@code external}
     * ({@code external_gt}: the given version must be higher than the current one and becomes the document's) and
     * {@code external_gte} (higher or equal).
     */
    public enum VersionType {
        INTERNAL, EXTERNAL, EXTERNAL_GTE;

        /** The {@code version_type} value as Elasticsearch reads it (lower case only). */
        public static VersionType parse(String value) {
            return switch (value) {
                case "internal" -> INTERNAL;
                case "external", "external_gt" -> EXTERNAL;
                case "external_gte" -> EXTERNAL_GTE;
                default -> throw GatewayException.illegalArgument("No version type match [" + value + "]");
            };
        }

        boolean validForWrites(long version) {
            return this == INTERNAL ? version > 0 || version == MATCH_ANY || version == MATCH_DELETED : version >= 0;
        }
    }

    /**
     * The conditions of a write: optimistic concurrency ({@code if_seq_no} and {@code if_primary_term}, both or
     * neither) and the requested {@code version} with its {@code version_type}.
     */
    public record Condition(OptionalLong ifSeqNo, OptionalLong ifPrimaryTerm, long version, VersionType versionType) {
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

        public Condition(OptionalLong ifSeqNo, OptionalLong ifPrimaryTerm) {
            this(ifSeqNo, ifPrimaryTerm, MATCH_ANY, VersionType.INTERNAL);
        }

        /** This condition with a requested {@code version} and {@code version_type}. */
        public Condition withVersion(long version, VersionType versionType) {
            return new Condition(ifSeqNo, ifPrimaryTerm, version, versionType);
        }

        public boolean isSet() {
            return ifSeqNo.isPresent();
        }

        /** Whether the version is given by the caller ({@code external}, {@code external_gte}). */
        public boolean external() {
            return versionType != VersionType.INTERNAL;
        }

        /**
         * Elasticsearch's request validation of these conditions for an index ({@code createOnly}: {@code _create},
         * {@code op_type=create}, or an index request without id outside {@code _bulk}) or a delete, in its order;
         * empty when valid. Each problem is one line of a "Validation Failed" answer.
         */
        public List<String> problems(boolean createOnly, boolean hasId) {
            List<String> out = new ArrayList<>();
            if (createOnly) {
                if (external()) {
                    return List.of("create operations only support internal versioning. use index instead");
                }
                if (isSet()) {
                    return List.of("create operations do not support compare and set. use index instead");
                }
                if (version != MATCH_ANY && version != MATCH_DELETED) {
                    return List.of("create operations do not support explicit versions. use index instead");
                }
            }
            if (!hasId && (external() || (version != MATCH_ANY && version != MATCH_DELETED))) {
                out.add("an id must be provided if version type or value are set");
            }
            if (!versionType.validForWrites(version)) {
                out.add("illegal version value [" + version + "] for version type [" + versionType.name() + "]");
            }
            if (versionType == VersionType.INTERNAL && version != MATCH_ANY && version != MATCH_DELETED) {
                out.add("internal versioning can not be used for optimistic concurrency control. Please use"
                        + " `if_seq_no` and `if_primary_term` instead");
            }
            if (isSet() && (external() || version != MATCH_ANY)) {
                out.add("compare and write operations can not use versioning");
            }
            return out;
        }
    }

    /**
     * The version check of a write against the document's current version ({@code current}: of the live document,
     * or of its tombstone when {@code deleted}; empty when there is neither), with Elasticsearch's conflict
     * messages. {@code id}'s conditions on sequence number are checked by {@link #check}.
     */
    public static void checkVersion(IndexMetadata index, String id, OptionalLong current, boolean deleted,
                                    Condition condition) {
        long v = condition.version();
        switch (condition.versionType()) {
            case INTERNAL -> {
                if (v == MATCH_DELETED && current.isPresent() && !deleted) {
                    throw conflict(index, "[" + id + "]: version conflict, document already exists (current version ["
                            + current.getAsLong() + "])");
                }
            }
            case EXTERNAL -> {
                if (current.isPresent() && current.getAsLong() >= v) {
                    throw conflict(index, "[" + id + "]: version conflict, current version [" + current.getAsLong()
                            + "] is higher or equal to the one provided [" + v + "]");
                }
            }
            case EXTERNAL_GTE -> {
                if (current.isPresent() && current.getAsLong() > v) {
                    throw conflict(index, "[" + id + "]: version conflict, current version [" + current.getAsLong()
                            + "] is higher than the one provided [" + v + "]");
                }
            }
        }
    }

    /** A realtime get's {@code version}: the found document must have exactly it. */
    public static void checkRead(IndexMetadata index, String id, long current, long requested) {
        if (requested != MATCH_ANY && current != requested) {
            throw conflict(index, "[" + id + "]: version conflict, current version [" + current
                    + "] is different than the one provided [" + requested + "]");
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
