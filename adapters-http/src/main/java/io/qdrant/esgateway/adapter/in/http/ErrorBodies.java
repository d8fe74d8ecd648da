package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.error.ScriptErrorDetails;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Locale;

/**
 * The only place that knows HTTP statuses and Elasticsearch error types:
 * {@code {"error":{"root_cause":[…],"type":…,"reason":…,…},"status":N}}.
 */
final class ErrorBodies {
    private ErrorBodies() {
    }

    static int status(ErrorKind kind) {
        return switch (kind) {
            case INDEX_NOT_FOUND, ALIASES_NOT_FOUND, DOCUMENT_MISSING, RESOURCE_NOT_FOUND -> 404;
            case VERSION_CONFLICT -> 409;
            case SEARCH_CONTEXT_MISSING -> 404;
            case TOO_MANY_SEARCH_CONTEXTS -> 500;
            case REJECTED_EXECUTION -> 429;
            case DOCUMENT_PARSING, STRICT_DYNAMIC_MAPPING, QUERY_SHARD, ROUTING_MISSING -> 400;
            case INVALID_INDEX_TEMPLATE, INDEX_CLOSED -> 400;
            case INDEX_TEMPLATE_MISSING -> 404;
            case RESOURCE_ALREADY_EXISTS, INVALID_INDEX_NAME, INVALID_ALIAS_NAME, ACTION_REQUEST_VALIDATION,
                 ILLEGAL_ARGUMENT, PARSE, PARSING, X_CONTENT_PARSE, NOT_JSON, MAPPER_PARSING, UNSUPPORTED -> 400;
            case CONTENT_TOO_LONG -> 413;
            case SEARCH_PHASE_EXECUTION, TOO_MANY_BUCKETS -> 400;
            case SCRIPT, SCRIPT_CAUSE, JAVA_EXCEPTION, DOCUMENT_SOURCE_MISSING -> 400;
            case BACKEND_UNAVAILABLE -> 503;
            case BACKEND_TIMEOUT -> 504;
            case BACKEND_FAILURE -> 502;
            case UNAUTHENTICATED -> 401;
            case FORBIDDEN -> 403;
            case CLUSTER_BLOCK -> 403;
            case CLUSTER_BLOCK_RETRYABLE -> 429;
            case ILLEGAL_STATE -> 500;
        };
    }

    static String type(ErrorKind kind) {
        return switch (kind) {
            case INDEX_NOT_FOUND -> "index_not_found_exception";
            case ALIASES_NOT_FOUND -> "aliases_not_found_exception";
            case RESOURCE_ALREADY_EXISTS -> "resource_already_exists_exception";
            case INVALID_INDEX_NAME -> "invalid_index_name_exception";
            case INVALID_ALIAS_NAME -> "invalid_alias_name_exception";
            case ACTION_REQUEST_VALIDATION -> "action_request_validation_exception";
            case ILLEGAL_ARGUMENT -> "illegal_argument_exception";
            case PARSE -> "parse_exception";
            case PARSING -> "parsing_exception";
            case X_CONTENT_PARSE, NOT_JSON -> "x_content_parse_exception";
            case MAPPER_PARSING -> "mapper_parsing_exception";
            case UNSUPPORTED -> "unsupported_operation_exception";
            case CONTENT_TOO_LONG -> "content_too_long_exception";
            case SEARCH_PHASE_EXECUTION -> "search_phase_execution_exception";
            case VERSION_CONFLICT -> "version_conflict_engine_exception";
            case DOCUMENT_MISSING -> "document_missing_exception";
            case RESOURCE_NOT_FOUND -> "resource_not_found_exception";
            case DOCUMENT_PARSING -> "document_parsing_exception";
            case STRICT_DYNAMIC_MAPPING -> "strict_dynamic_mapping_exception";
            case BACKEND_UNAVAILABLE -> "backend_unavailable_exception";
            case BACKEND_TIMEOUT -> "backend_timeout_exception";
            case BACKEND_FAILURE -> "backend_failure_exception";
            case TOO_MANY_BUCKETS -> "too_many_buckets_exception";
            case SEARCH_CONTEXT_MISSING -> "search_context_missing_exception";
            case TOO_MANY_SEARCH_CONTEXTS -> "exception";
            case SCRIPT -> "script_exception";
            case SCRIPT_CAUSE, JAVA_EXCEPTION -> "exception";
            case DOCUMENT_SOURCE_MISSING -> "document_source_missing_exception";
            case REJECTED_EXECUTION -> "es_rejected_execution_exception";
            case QUERY_SHARD -> "query_shard_exception";
            case ROUTING_MISSING -> "routing_missing_exception";
            case UNAUTHENTICATED, FORBIDDEN -> "security_exception";
            case INVALID_INDEX_TEMPLATE -> "invalid_index_template_exception";
            case INDEX_TEMPLATE_MISSING -> "index_template_missing_exception";
            case CLUSTER_BLOCK, CLUSTER_BLOCK_RETRYABLE -> "cluster_block_exception";
            case INDEX_CLOSED -> "index_closed_exception";
            case ILLEGAL_STATE -> "illegal_state_exception";
        };
    }

    static EsResponse of(GatewayException e) {
        int status = e.kind() != ErrorKind.SEARCH_PHASE_EXECUTION ? status(e.kind())
                : e.shardFailures().isEmpty() ? status(e.gatewayCause().kind())
                : status(e.shardFailures().get(0).reason().kind());
        return EsResponse.json(status, JsonObjectBuilder.object().put("error", full(e)).put("status", status).build());
    }

    /** Kinds that Elasticsearch reports from a plain Java exception, never as a root cause below its own. */
    private static boolean isPlainJavaException(ErrorKind kind) {
        return kind == ErrorKind.ILLEGAL_ARGUMENT || kind == ErrorKind.SCRIPT_CAUSE || kind == ErrorKind.JAVA_EXCEPTION;
    }

    /** The error object with its {@code root_cause} list (top-level errors and {@code _mget} items). */
    static JsonObject full(GatewayException e) {
        if (e.kind() == ErrorKind.SEARCH_PHASE_EXECUTION) {
            return searchPhase(e);
        }
        // Elasticsearch's root cause is the deepest of its own exceptions in the chain: a plain Java exception
        // underneath (illegal_argument_exception, number_format_exception, …) is only shown as caused_by
        GatewayException root = e;
        // a plain Java exception on top ("failed to execute script" over a script_exception, "failed to parse filter
        // for alias [x]" over a parsing_exception) is its own root cause
        boolean plainOnTop = isPlainJavaException(e.kind()) && e.gatewayCause() != null;
        while (!plainOnTop && root.gatewayCause() != null && !isPlainJavaException(root.gatewayCause().kind())) {
            root = root.gatewayCause();
        }
        JsonObjectBuilder error = JsonObjectBuilder.object()
                .put("root_cause", new JsonValue.JsonArray(List.of(cause(root, false))));
        cause(e, true).members().forEach(error::put);
        return error.build();
    }

    static JsonObject cause(GatewayException e, boolean withCausedBy) {
        JsonObjectBuilder b = JsonObjectBuilder.object()
                .put("type", e.javaType() != null ? e.javaType() : type(e.kind()))
                .put("reason", e.reason() == null ? JsonValue.JsonNull.INSTANCE : new JsonValue.JsonString(e.reason()));
        if (e.scriptDetails() != null) {
            ScriptErrorDetails d = e.scriptDetails();
            b.put("script_stack", new JsonValue.JsonArray(d.scriptStack().stream()
                    .<JsonValue>map(JsonValue.JsonString::new).toList()));
            b.put("script", d.script()).put("lang", d.lang());
            b.put("position", JsonObjectBuilder.object().put("offset", d.offset()).put("start", d.start())
                    .put("end", d.end()).build());
        }
        if (e.kind() == ErrorKind.TOO_MANY_BUCKETS) {
            // ES renders max_buckets as a number
            e.metadata().forEach((k, v) -> b.put(k, new JsonValue.JsonNumber(Long.parseLong(v))));
        } else if (e.kind() == ErrorKind.PARSING) {
            // a parsing_exception's position: line and col as numbers
            e.metadata().forEach((k, v) -> b.put(k, k.equals("line") || k.equals("col")
                    ? new JsonValue.JsonNumber(Long.parseLong(v)) : new JsonValue.JsonString(v)));
        } else {
            e.metadata().forEach(b::put);
        }
        if (e.kind() == ErrorKind.UNAUTHENTICATED) {
            b.put("header", AccessControl.CHALLENGE_BODY);
        }
        if (withCausedBy && e.gatewayCause() != null) {
            b.put("caused_by", cause(e.gatewayCause(), true));
        }
        return b.build();
    }

    /**
     * Elasticsearch's shape for a search that failed on its shards: one root cause per distinct failure, the
     * per-shard list, and the first failure as {@code caused_by} (which ES nests twice).
     */
    private static JsonObject searchPhase(GatewayException e) {
        if (e.shardFailures().isEmpty()) {
            // failed in the reduce phase (GatewayException.reduceFailed): no shard failed
            return JsonObjectBuilder.object().put("root_cause", new JsonValue.JsonArray(List.of()))
                    .put("type", type(e.kind())).put("reason", e.reason()).put("phase", "rank-feature")
                    .put("grouped", true).put("failed_shards", new JsonValue.JsonArray(List.of()))
                    .put("caused_by", cause(e.gatewayCause(), true)).build();
        }
        List<JsonValue> roots = new java.util.ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<JsonValue> shards = new java.util.ArrayList<>();
        for (GatewayException.ShardFailure f : e.shardFailures()) {
            // ES lists a query_shard_exception and a script_exception as a root cause without its cause
            JsonObject reason = cause(f.reason(), f.reason().kind() != ErrorKind.QUERY_SHARD
                    && f.reason().kind() != ErrorKind.SCRIPT);
            if (seen.add(f.reason().reason())) {
                roots.add(reason);
            }
            shards.add(shardFailure(f));
        }
        GatewayException first = e.shardFailures().get(0).reason();
        JsonObjectBuilder causedBy = JsonObjectBuilder.object();
        cause(first, true).members().forEach(causedBy::put);
        // a script_exception is its own cause there: its caused_by stays the Java exception
        if (first.kind() != ErrorKind.SEARCH_CONTEXT_MISSING && first.kind() != ErrorKind.SCRIPT) {
            causedBy.put("caused_by", cause(first, true));
        }
        JsonObjectBuilder out = JsonObjectBuilder.object()
                .put("root_cause", new JsonValue.JsonArray(roots))
                .put("type", type(e.kind()))
                .put("reason", e.reason())
                .put("phase", "query")
                .put("grouped", true)
                .put("failed_shards", new JsonValue.JsonArray(shards));
        // a point in time whose contexts are gone fails on its shards, and Elasticsearch then names no cause; nor
        // is a query that cannot be built on a shard the cause of the whole search in ES's answer
        if ((first.kind() != ErrorKind.SEARCH_CONTEXT_MISSING || e.shardFailures().get(0).index() == null)
                && first.kind() != ErrorKind.QUERY_SHARD) {
            out.put("caused_by", causedBy);
        }
        return out.build();
    }

    /** One entry of {@code failed_shards} or of a partial answer's {@code _shards.failures}. */
    static JsonObject shardFailure(GatewayException.ShardFailure f) {
        if (f.reason().kind() == ErrorKind.SEARCH_CONTEXT_MISSING && f.index() == null) {
            // Elasticsearch knows no shard for a context it cannot find
            return JsonObjectBuilder.object().put("shard", -1).put("index", JsonValue.JsonNull.INSTANCE)
                    .put("reason", cause(f.reason(), true)).build();
        }
        return JsonObjectBuilder.object().put("shard", 0).put("index", f.index()).put("node", NODE_ID)
                .put("reason", cause(f.reason(), true)).build();
    }

    /** The node id the gateway reports in shard failures (it is one node). */
    static final String NODE_ID = "qdrant-es-gateway";

    /** A failure that is our bug: 500 with the exception's ES-style type name, never a hang or an empty reply. */
    static EsResponse ofBug(Throwable t) {
        String type = t.getClass().getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
        String reason = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        JsonObject cause = JsonObjectBuilder.object().put("type", type).put("reason", reason).build();
        JsonObjectBuilder error = JsonObjectBuilder.object()
                .put("root_cause", new JsonValue.JsonArray(List.of(cause)));
        cause.members().forEach(error::put);
        return EsResponse.json(500, JsonObjectBuilder.object().put("error", error).put("status", 500).build());
    }

    /** Elasticsearch's short form for routing failures: {@code {"error":"…","status":N}}. */
    /** Elasticsearch's 400 for a path no endpoint serves: the message alone, without {@code status}. */
    static EsResponse noHandler(String message) {
        return EsResponse.json(400, JsonObjectBuilder.object().put("error", message).build());
    }

    static EsResponse simple(int status, String message) {
        return EsResponse.json(status, JsonObjectBuilder.object().put("error", message).put("status", status).build());
    }
}
