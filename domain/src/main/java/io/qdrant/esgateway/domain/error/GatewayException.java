package io.qdrant.esgateway.domain.error;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one exception type the domain and application raise for expected failures. It carries a {@link ErrorKind},
 * a reason written for the user, and metadata fields that Elasticsearch puts next to the reason
 * (e.g. {@code index}, {@code index_uuid}, {@code resource.id}). Only the HTTP adapter knows statuses.
 */
public final class GatewayException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorKind kind;
    private final transient Map<String, String> metadata;
    private final transient java.util.List<ShardFailure> shardFailures;
    private final transient ScriptErrorDetails scriptDetails;
    private final String javaType;

    /** The failure of one index of a search (Elasticsearch's {@code failed_shards} entry; one shard per index). */
    public record ShardFailure(String index, GatewayException reason) {
    }

    public GatewayException(ErrorKind kind, String reason, Map<String, String> metadata, Throwable cause) {
        super(reason, cause);
        this.kind = kind;
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        this.shardFailures = java.util.List.of();
        this.scriptDetails = null;
        this.javaType = null;
    }

    private GatewayException(ErrorKind kind, String reason, ScriptErrorDetails details, String javaType,
                             GatewayException cause) {
        super(reason, cause);
        this.kind = kind;
        this.metadata = Map.of();
        this.shardFailures = java.util.List.of();
        this.scriptDetails = details;
        this.javaType = javaType;
    }

    /** A {@code script_exception} ("compile error" or "runtime error") caused by {@code cause}. */
    public static GatewayException script(String reason, ScriptErrorDetails details, GatewayException cause) {
        return new GatewayException(ErrorKind.SCRIPT, reason, details, null, cause);
    }

    /** The Java exception a script raised, by its Elasticsearch type name ({@code null_pointer_exception}, …). */
    public static GatewayException scriptCause(String javaType, String reason) {
        return new GatewayException(ErrorKind.SCRIPT_CAUSE, reason, null, javaType, null);
    }

    /**
     * A plain Java exception as Elasticsearch names it in a {@code caused_by} ({@code number_format_exception},
     * {@code illegal_state_exception}, …).
     */
    public static GatewayException javaException(String javaType, String reason) {
        return new GatewayException(ErrorKind.JAVA_EXCEPTION, reason, null, javaType, null);
    }

    /** A script's details when this is a {@link ErrorKind#SCRIPT} error, else null. */
    public ScriptErrorDetails scriptDetails() {
        return scriptDetails;
    }

    /** The Elasticsearch type name of a {@link ErrorKind#SCRIPT_CAUSE} or {@link ErrorKind#JAVA_EXCEPTION}, else null. */
    public String javaType() {
        return javaType;
    }

    private GatewayException(java.util.List<ShardFailure> failures) {
        super("all shards failed", failures.get(0).reason());
        this.kind = ErrorKind.SEARCH_PHASE_EXECUTION;
        this.metadata = Map.of();
        this.shardFailures = java.util.List.copyOf(failures);
        this.scriptDetails = null;
        this.javaType = null;
    }

    private GatewayException(GatewayException cause) {
        super("", cause);
        this.kind = ErrorKind.SEARCH_PHASE_EXECUTION;
        this.metadata = Map.of();
        this.shardFailures = java.util.List.of();
        this.scriptDetails = null;
        this.javaType = null;
    }

    /**
     * A search that failed after every shard answered (Elasticsearch 8.15 reduces aggregations in its
     * {@code rank-feature} phase): {@code search_phase_execution_exception} with no shard failures, {@code cause}
     * as {@code caused_by}, and the cause's status.
     */
    public static GatewayException reduceFailed(GatewayException cause) {
        return new GatewayException(cause);
    }

    /** ES's {@code search_phase_execution_exception} "all shards failed" over these per-index failures. */
    public static GatewayException allShardsFailed(java.util.List<ShardFailure> failures) {
        if (failures.isEmpty()) {
            throw new IllegalArgumentException("no failures");
        }
        return new GatewayException(failures);
    }

    public java.util.List<ShardFailure> shardFailures() {
        return shardFailures;
    }

    public GatewayException(ErrorKind kind, String reason) {
        this(kind, reason, Map.of(), null);
    }

    public ErrorKind kind() {
        return kind;
    }

    public String reason() {
        return getMessage();
    }

    public Map<String, String> metadata() {
        return metadata;
    }

    /** The cause when it is itself a gateway error (rendered as Elasticsearch's {@code caused_by}). */
    public GatewayException gatewayCause() {
        return getCause() instanceof GatewayException g ? g : null;
    }

    /** Elasticsearch's {@code index_closed_exception} for a read or write of a closed index. */
    public static GatewayException indexClosed(String name, String uuid) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", uuid);
        meta.put("index", name);
        return new GatewayException(ErrorKind.INDEX_CLOSED, "closed", meta, null);
    }

    public static GatewayException indexNotFound(String name) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("resource.type", "index_or_alias");
        meta.put("resource.id", name);
        meta.put("index_uuid", "_na_");
        meta.put("index", name);
        return new GatewayException(ErrorKind.INDEX_NOT_FOUND, "no such index [" + name + "]", meta, null);
    }

    public static GatewayException alreadyExists(String name, String uuid) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", uuid);
        meta.put("index", name);
        return new GatewayException(ErrorKind.RESOURCE_ALREADY_EXISTS,
                "index [" + name + "/" + uuid + "] already exists", meta, null);
    }

    public static GatewayException invalidIndexName(String name, String why) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", "_na_");
        meta.put("index", name);
        return new GatewayException(ErrorKind.INVALID_INDEX_NAME, "Invalid index name [" + name + "], " + why, meta, null);
    }

    public static GatewayException invalidAliasName(String alias, String why) {
        return new GatewayException(ErrorKind.INVALID_ALIAS_NAME, "Invalid alias name [" + alias + "]: " + why);
    }

    /** Elasticsearch's refusal to update a document of an index with {@code _source.enabled: false}. */
    public static GatewayException documentSourceMissing(String index, String uuid, String id) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", uuid);
        meta.put("shard", "0");
        meta.put("index", index);
        return new GatewayException(ErrorKind.DOCUMENT_SOURCE_MISSING, "[" + id + "]: document source missing", meta,
                null);
    }

    public static GatewayException aliasesNotFound(java.util.Collection<String> aliases) {
        String list = String.join(",", aliases);
        return new GatewayException(ErrorKind.ALIASES_NOT_FOUND, "aliases [" + list + "] missing",
                Map.of("resource.type", "aliases", "resource.id", list), null);
    }

    /** ES's request validation error: "Validation Failed: 1: first problem;2: second problem;". */
    public static GatewayException validationFailed(java.util.List<String> problems) {
        StringBuilder reason = new StringBuilder("Validation Failed: ");
        for (int i = 0; i < problems.size(); i++) {
            reason.append(i + 1).append(": ").append(problems.get(i)).append(';');
        }
        return new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, reason.toString());
    }

    /** Elasticsearch's refusal to sort or aggregate on a {@code text} field. */
    public static GatewayException fielddataDisabled(String index, String field) {
        return illegalArgument("Fielddata is disabled on [" + field + "] in [" + index + "]. Text fields are not"
                + " optimised for operations that require per-document field data like aggregations and sorting, so"
                + " these operations are disabled by default. Please use a keyword field instead. Alternatively, set"
                + " fielddata=true on [" + field + "] in order to load field data by uninverting the inverted index."
                + " Note that this can use significant memory.");
    }

    /** Elasticsearch's refusal to sort or aggregate on a field mapped with {@code doc_values: false}. */
    public static GatewayException noDocValues(String field, String type) {
        if (field.equals("_routing")) {
            // the metadata field has no doc values and no field data in Elasticsearch
            return illegalArgument("Fielddata is not supported on field [_routing] of type [_routing]");
        }
        return illegalArgument("Can't load fielddata on [" + field + "] because fielddata is unsupported on fields of"
                + " type [" + type + "]. Use doc values instead.");
    }

    public static GatewayException illegalArgument(String reason) {
        return new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, reason);
    }

    public static GatewayException parse(String reason) {
        return new GatewayException(ErrorKind.PARSE, reason);
    }

    /**
     * Elasticsearch's {@code parsing_exception} with the {@code line} and {@code col} of {@code at} (a position
     * packed as {@code JsonValue.Position} packs it; 0 leaves them out).
     */
    public static GatewayException parsingAt(String reason, long at) {
        if (at == 0) {
            return new GatewayException(ErrorKind.PARSING, reason);
        }
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("line", Integer.toString((int) (at >>> 32)));
        meta.put("col", Integer.toString((int) at));
        return new GatewayException(ErrorKind.PARSING, reason, meta, null);
    }

    public static GatewayException mapperParsing(String reason) {
        return new GatewayException(ErrorKind.MAPPER_PARSING, reason);
    }

    /** A mapping error as Elasticsearch wraps it: "Failed to parse mapping: …" caused by the detail. */
    public static GatewayException mappingFailed(String detail) {
        return new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: " + detail, Map.of(),
                mapperParsing(detail));
    }

    /** "Failed to parse mapping: …" caused by an {@code illegal_argument_exception} with the detail (ES's shape). */
    public static GatewayException mappingIllegal(String detail) {
        return new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: " + detail, Map.of(),
                illegalArgument(detail));
    }

    public static GatewayException unsupported(String feature) {
        return new GatewayException(ErrorKind.UNSUPPORTED, feature + " is not supported by the gateway");
    }

    public static GatewayException backendUnavailable(String what, Throwable cause) {
        return new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, what, Map.of(), cause);
    }
}
