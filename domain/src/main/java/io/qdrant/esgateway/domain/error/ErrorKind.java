package io.qdrant.esgateway.domain.error;

/**
 * What went wrong, independent of any transport. The HTTP edge maps each kind to a status and an Elasticsearch
 * error type; adding a kind fails compilation there until it is mapped.
 */
public enum ErrorKind {
    /** The named index (or alias) does not exist. */
    INDEX_NOT_FOUND,
    /** An index with that name already exists. */
    RESOURCE_ALREADY_EXISTS,
    /** The index name breaks the naming rules. */
    INVALID_INDEX_NAME,
    /** The alias name breaks the naming rules or collides with an index. */
    INVALID_ALIAS_NAME,
    /** The named alias(es) do not exist. */
    ALIASES_NOT_FOUND,
    /** Elasticsearch's request validation failed ("Validation Failed: 1: …;"). */
    ACTION_REQUEST_VALIDATION,
    /** A value is not acceptable for this operation. */
    ILLEGAL_ARGUMENT,
    /** The request body cannot be read as the expected structure (unknown key, wrong shape). */
    PARSE,
    /** A query (or another search body part) is malformed: unknown query type or parameter ({@code parsing_exception}). */
    PARSING,
    /** A field of the body has the wrong type or an unknown name, with its JSON path. */
    X_CONTENT_PARSE,
    /** The body is not JSON at all. */
    NOT_JSON,
    /** A mapping definition is invalid. */
    MAPPER_PARSING,
    /** Elasticsearch supports this, the gateway does not (yet); the message names the feature. */
    UNSUPPORTED,
    /** A conditional or create-only write found a different document state (409). */
    VERSION_CONFLICT,
    /** An update addressed a document that does not exist. */
    DOCUMENT_MISSING,
    /** A document (or another resource) was asked for and does not exist, where ES answers with an error body. */
    RESOURCE_NOT_FOUND,
    /** A document value does not fit its mapped type, or the document is not a JSON object. */
    DOCUMENT_PARSING,
    /** A document brings a field that a {@code dynamic: strict} mapping does not allow. */
    STRICT_DYNAMIC_MAPPING,
    /**
     * A search failed on its indices ("all shards failed"); the per-index failures are in
     * {@link GatewayException#shardFailures()} and the status is theirs.
     */
    SEARCH_PHASE_EXECUTION,
    /** The request body is larger than the configured limit. */
    CONTENT_TOO_LONG,
    /** The catalog or document backend cannot be reached. */
    BACKEND_UNAVAILABLE,
    /** The document backend did not answer in time. */
    BACKEND_TIMEOUT,
    /** The document backend answered with an error we did not expect: our bug or a backend fault. */
    BACKEND_FAILURE,
    /**
     * An aggregation answer with more than {@code search.max_buckets} (65,536) buckets: Elasticsearch's
     * {@code too_many_buckets_exception}, raised in the final reduce (400; see {@link GatewayException#reduceFailed}).
     */
    TOO_MANY_BUCKETS,
    /** A scroll id (or point in time) names no open context: expired, cleared or never issued (404). */
    SEARCH_CONTEXT_MISSING,
    /** Opening one more search context would pass {@code search.max_open_scroll_context} (ES's plain 500). */
    TOO_MANY_SEARCH_CONTEXTS,
    /**
     * A script failed to compile or to run ({@code script_exception}, 400); its details are in
     * {@link GatewayException#scriptDetails()} and its cause is a {@link #SCRIPT_CAUSE}.
     */
    SCRIPT,
    /**
     * The Java exception a script raised ({@code null_pointer_exception}, {@code class_cast_exception}, …); its
     * Elasticsearch type name is {@link GatewayException#javaType()}.
     */
    SCRIPT_CAUSE,
    /** A background task refused because the task executor is full: {@code es_rejected_execution_exception} (429). */
    REJECTED_EXECUTION,
    /** A query cannot be built on an index's mapping, e.g. on a field that is not searchable (400). */
    QUERY_SHARD,
    /** A document operation without {@code routing} on an index whose mapping requires it (400). */
    ROUTING_MISSING,
    /** No credentials, or credentials that do not authenticate: {@code security_exception} (401). */
    UNAUTHENTICATED,
    /** The authenticated caller may not run this action (on these indices): {@code security_exception} (403). */
    FORBIDDEN,
    /** An index or component template cannot be stored as given ({@code invalid_index_template_exception}, 400). */
    INVALID_INDEX_TEMPLATE,
    /** A named index template does not exist where it must ({@code index_template_missing_exception}, 404). */
    INDEX_TEMPLATE_MISSING,
    /** An index block ({@code index.blocks.*}) refuses the operation: {@code cluster_block_exception} (403). */
    CLUSTER_BLOCK,
    /** Only the retryable {@code read_only_allow_delete} block refuses it: {@code cluster_block_exception} (429). */
    CLUSTER_BLOCK_RETRYABLE,
    /** A read or write of a closed index ({@code index_closed_exception}, 400). */
    INDEX_CLOSED,
    /** The change would leave the cluster state inconsistent: Elasticsearch's {@code illegal_state_exception} (500). */
    ILLEGAL_STATE,
    /**
     * A plain Java exception that Elasticsearch reports by its class ({@code number_format_exception},
     * {@code illegal_state_exception}) as the cause of one of its own; its type name is
     * {@link GatewayException#javaType()}.
     */
    JAVA_EXCEPTION,
    /** An update of a document whose index does not keep {@code _source} ({@code _source.enabled: false}). */
    DOCUMENT_SOURCE_MISSING
}
