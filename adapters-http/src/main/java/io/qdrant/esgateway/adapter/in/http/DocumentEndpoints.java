package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations.GetResult;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.UpdateBody;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.document.Versioning.VersionType;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The single-document APIs: index, create, get, exists, source, delete, update.
 *
 * <pre>
 * curl -XPUT 'localhost:9200/books/_doc/1?refresh=true' -H 'Content-Type: application/json' -d '{"title":"Dune"}'
 * curl localhost:9200/books/_doc/1
 * curl -XPOST localhost:9200/books/_update/1 -H 'Content-Type: application/json' -d '{"doc":{"year":1965}}'
 * </pre>
 */
final class DocumentEndpoints {
    private static final String WRITE_PARAMS = "if_seq_no,if_primary_term,refresh,routing,timeout,"
            + "wait_for_active_shards,version,version_type,pipeline,require_alias,op_type";
    private static final String READ_PARAMS = "_source,_source_includes,_source_excludes,stored_fields,preference,"
            + "realtime,refresh,routing,version,version_type";
    /** {@code _source} takes no {@code version}, as in Elasticsearch. */
    private static final String SOURCE_PARAMS = "_source,_source_includes,_source_excludes,stored_fields,preference,"
            + "realtime,refresh,routing";

    private final DocumentOperations documents;

    DocumentEndpoints(DocumentOperations documents) {
        this.documents = documents;
    }

    void register(Router router) {
        router.add(route("PUT,POST", "/{index}/_doc/{id}", "index", WRITE_PARAMS, true, this::index))
                .add(route("POST", "/{index}/_doc", "index", WRITE_PARAMS, true, this::index))
                .add(route("PUT,POST", "/{index}/_create/{id}", "create", WRITE_PARAMS, true, this::create))
                .add(route("GET", "/{index}/_doc/{id}", "get", READ_PARAMS, false, this::get))
                .add(route("HEAD", "/{index}/_doc/{id}", "exists", READ_PARAMS, false, this::exists))
                .add(route("GET", "/{index}/_source/{id}", "get_source", SOURCE_PARAMS, false, this::source))
                .add(route("HEAD", "/{index}/_source/{id}", "exists_source", SOURCE_PARAMS, false,
                        this::sourceExists))
                .add(route("DELETE", "/{index}/_doc/{id}", "delete",
                        "if_seq_no,if_primary_term,refresh,routing,timeout,wait_for_active_shards,version,version_type",
                        false, this::delete))
                .add(route("POST", "/{index}/_update/{id}", "update",
                        "if_seq_no,if_primary_term,lang,refresh,require_alias,retry_on_conflict,routing,timeout,"
                                + "wait_for_active_shards,_source,_source_includes,_source_excludes,version,"
                                + "version_type", true,
                        this::update));
    }

    private EsResponse index(EsRequest request) {
        boolean createOnly = switch (request.param("op_type").orElse("index")) {
            case "index" -> false;
            case "create" -> true;
            default -> throw GatewayException.illegalArgument("opType must be 'create' or 'index', found: ["
                    + request.param("op_type").get() + "]");
        };
        Optional<String> id = request.optionalPathParam("id");
        // an index request without an id is a create (of a generated id), as in Elasticsearch
        return write(request, new WriteCommand.Index(request.pathParam("index"), id, request.requiredBody(),
                createOnly, versioned(request, createOnly || id.isEmpty()), request.flag("require_alias", false)));
    }

    private EsResponse create(EsRequest request) {
        if (request.param("op_type").filter(t -> !t.equals("create")).isPresent()) {
            throw GatewayException.illegalArgument("opType must be 'create', found: [" + request.param("op_type").get()
                    + "]");
        }
        return write(request, new WriteCommand.Index(request.pathParam("index"), Optional.of(request.pathParam("id")),
                request.requiredBody(), true, versioned(request, true), request.flag("require_alias", false)));
    }

    private EsResponse delete(EsRequest request) {
        return write(request, new WriteCommand.Delete(request.pathParam("index"), request.pathParam("id"),
                versioned(request, false), false));
    }

    private EsResponse update(EsRequest request) {
        if (request.param("version").isPresent() || request.param("version_type").isPresent()) {
            throw GatewayException.validationFailed(List.of(INTERNAL_VERSIONING));
        }
        UpdateBody body = UpdateBody.parse(request.requiredBody());
        Optional<SourceFilter> fetch = body.source();
        SourceFilter fromParams = sourceFilter(request);
        if (request.param("_source").isPresent() || request.param("_source_includes").isPresent()
                || request.param("_source_excludes").isPresent()) {
            fetch = Optional.of(fromParams);
        }
        if (body.script().isPresent()) {
            return write(request, new WriteCommand.ScriptedUpdate(request.pathParam("index"), request.pathParam("id"),
                    body.script().get(), body.upsert(), body.scriptedUpsert(), condition(request), fetch,
                    request.flag("require_alias", false)));
        }
        return write(request, new WriteCommand.Update(request.pathParam("index"), request.pathParam("id"), body.doc(),
                body.upsert(), body.docAsUpsert(), body.detectNoop(), condition(request), fetch,
                request.flag("require_alias", false)));
    }

    private EsResponse write(EsRequest request, WriteCommand command) {
        boolean forced = refresh(request);
        unsupportedWriteParams(request);
        Written written = documents.write(WriteCommand.routed(command, request.param("routing")));
        return EsResponse.json(DocumentResponses.status(written), DocumentResponses.written(written, forced).build());
    }

    private EsResponse get(EsRequest request) {
        noStoredFields(request);
        GetResult result = documents.get(request.pathParam("index"), request.pathParam("id"),
                request.param("routing"), readVersion(request));
        return EsResponse.json(result.document().isPresent() ? 200 : 404,
                DocumentResponses.got(result, sourceFilter(request)));
    }

    private EsResponse exists(EsRequest request) {
        return EsResponse.empty(documents.get(request.pathParam("index"), request.pathParam("id"),
                request.param("routing"), readVersion(request)).document()
                .isPresent() ? 200 : 404);
    }

    private EsResponse source(EsRequest request) {
        noStoredFields(request);
        GetResult result = documents.get(request.pathParam("index"), request.pathParam("id"),
                request.param("routing"));
        if (result.document().isPresent() && result.sourceHidden()) {
            throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "Source not found [" + result.index() + "]/["
                    + result.id() + "]");
        }
        return result.document()
                .map(doc -> EsResponse.ok(sourceFilter(request).apply(doc.source())))
                .orElseThrow(() -> new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "Document not found ["
                        + result.index() + "]/[" + result.id() + "]"));
    }

    private EsResponse sourceExists(EsRequest request) {
        GetResult result = documents.get(request.pathParam("index"), request.pathParam("id"),
                request.param("routing"));
        return EsResponse.empty(result.document().isPresent() && !result.sourceHidden() ? 200 : 404);
    }

    static SourceFilter sourceFilter(EsRequest request) {
        return SourceFilter.fromParams(request.param("_source"), request.param("_source_includes"),
                request.param("_source_excludes"));
    }

    static void noStoredFields(EsRequest request) {
        if (request.param("stored_fields").isPresent()) {
            throw GatewayException.unsupported("[stored_fields] (every field is returned through _source)");
        }
    }

    /** {@code refresh}: every acknowledged write is already visible; {@code true} is reported as ES reports it. */
    static boolean refresh(EsRequest request) {
        return switch (request.param("refresh").orElse("false")) {
            case "", "true" -> true;
            case "false", "wait_for" -> false;
            default -> throw GatewayException.illegalArgument("Unknown value for refresh: ["
                    + request.param("refresh").get() + "].");
        };
    }

    static void unsupportedWriteParams(EsRequest request) {
        if (request.param("pipeline").isPresent()) {
            throw GatewayException.unsupported("ingest pipelines ([pipeline])");
        }
    }

    static Condition condition(EsRequest request) {
        return new Condition(longParam(request, "if_seq_no"), longParam(request, "if_primary_term"));
    }

    /** Elasticsearch's refusal of {@code version} on an update (and on internal-versioned writes). */
    static final String INTERNAL_VERSIONING = "internal versioning can not be used for optimistic concurrency control."
            + " Please use `if_seq_no` and `if_primary_term` instead";

    /**
     * The conditions of an index ({@code createOnly}: a create) or delete request: {@code if_seq_no},
     * {@code if_primary_term}, {@code version} and {@code version_type}, validated as Elasticsearch validates them.
     */
    static Condition versioned(EsRequest request, boolean createOnly) {
        VersionType type = request.param("version_type").map(VersionType::parse).orElse(VersionType.INTERNAL);
        OptionalLong version = longParam(request, "version");
        Condition condition = condition(request).withVersion(version.orElse(Versioning.MATCH_ANY), type);
        List<String> problems = condition.problems(createOnly, true);
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        return condition;
    }

    /** A get's {@code version} (any {@code version_type}): the found document must have it. */
    private static long readVersion(EsRequest request) {
        request.param("version_type").map(VersionType::parse);
        return longParam(request, "version").orElse(Versioning.MATCH_ANY);
    }

    private static OptionalLong longParam(EsRequest request, String name) {
        Optional<String> value = request.param(name);
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value.get()));
        } catch (NumberFormatException e) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Failed to parse long parameter [" + name
                    + "] with value [" + value.get() + "]", Map.of(), GatewayException.scriptCause(
                    "number_format_exception", "For input string: \"" + value.get() + "\""));
        }
    }
}
