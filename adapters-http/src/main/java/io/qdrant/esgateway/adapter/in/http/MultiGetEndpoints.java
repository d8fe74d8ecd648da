package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations.GetCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.GetOutcome;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code _mget}: the {@code docs} form (each with its own {@code _index}, {@code _id}, {@code _source}) and the
 * {@code ids} form (with the index from the path).
 *
 * <pre>
 * curl -XPOST localhost:9200/books/_mget -H 'Content-Type: application/json' -d '{"ids":["1","2"]}'
 * </pre>
 */
final class MultiGetEndpoints {
    private static final String PARAMS = "_source,_source_includes,_source_excludes,stored_fields,preference,realtime,"
            + "refresh,routing";
    private final DocumentOperations documents;

    MultiGetEndpoints(DocumentOperations documents) {
        this.documents = documents;
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_mget", "mget", PARAMS, true, this::mget))
                .add(route("GET,POST", "/{index}/_mget", "mget", PARAMS, true, this::mget));
    }

    private EsResponse mget(EsRequest request) {
        DocumentEndpoints.noStoredFields(request);
        Optional<String> index = request.optionalPathParam("index");
        SourceFilter defaultSource = DocumentEndpoints.sourceFilter(request);
        JsonObject body = JsonReads.object(request.requiredBody(), JsonReads::parseError, "[mget] body");
        List<GetCommand> commands = new ArrayList<>();
        List<String> validation = new ArrayList<>();
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            switch (e.getKey()) {
                case "docs" -> {
                    List<JsonValue> docs = array(e.getValue(), "docs");
                    for (int i = 0; i < docs.size(); i++) {
                        commands.add(doc(docs.get(i), i, index, defaultSource, request.param("routing"),
                                validation));
                    }
                }
                case "ids" -> {
                    List<JsonValue> ids = array(e.getValue(), "ids");
                    for (int i = 0; i < ids.size(); i++) {
                        String id = JsonReads.text(ids.get(i)).orElseThrow(() -> GatewayException.parse(
                                "ids array element should only contain ids"));
                        if (index.isEmpty()) {
                            validation.add("index is missing for doc " + i);
                        }
                        commands.add(new GetCommand(index.orElse(""), id, defaultSource, request.param("routing")));
                    }
                }
                default -> throw GatewayException.parse("unknown key [" + e.getKey() + "] for a "
                        + e.getValue().tokenName() + ", expected [docs] or [ids]");
            }
        }
        if (commands.isEmpty()) {
            validation.add("no documents to get");
        }
        if (!validation.isEmpty()) {
            throw GatewayException.validationFailed(validation);
        }
        // a document on an index the caller may not read fails alone (ES's per-item authorization)
        List<GatewayException> denied = new ArrayList<>(commands.size());
        List<GetCommand> allowed = new ArrayList<>(commands.size());
        for (GetCommand command : commands) {
            GatewayException no = ItemAccess.deniedGet(command.target());
            denied.add(no);
            if (no == null) {
                allowed.add(command);
            }
        }
        List<GetOutcome> outcomes = allowed.isEmpty() ? List.of() : documents.multiGet(allowed);
        List<JsonValue> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < commands.size(); i++) {
            GetOutcome outcome = denied.get(i) == null ? outcomes.get(next++)
                    : new GetOutcome.Error(commands.get(i).target(), commands.get(i).id(), denied.get(i));
            out.add(switch (outcome) {
                case GetOutcome.Found f -> DocumentResponses.got(f.result(), f.source());
                case GetOutcome.Error err -> JsonObjectBuilder.object().put("_index", err.index()).put("_id", err.id())
                        .put("error", ErrorBodies.full(err.error())).build();
            });
        }
        return EsResponse.ok(JsonObjectBuilder.object().put("docs", new JsonArray(out)).build());
    }

    private static GetCommand doc(JsonValue value, int position, Optional<String> defaultIndex,
                                  SourceFilter defaultSource, Optional<String> defaultRouting,
                                  List<String> validation) {
        JsonObject doc = JsonReads.object(value, JsonReads::parseError, "[docs] element");
        String index = defaultIndex.orElse(null);
        String id = null;
        SourceFilter source = defaultSource;
        Optional<String> routing = defaultRouting;
        long version = Versioning.MATCH_ANY;
        for (Map.Entry<String, JsonValue> e : doc.members().entrySet()) {
            switch (e.getKey()) {
                case "_index" -> index = JsonReads.text(e.getValue()).orElseThrow(
                        () -> GatewayException.parse("[_index] must be a string"));
                case "_id" -> id = JsonReads.text(e.getValue()).orElseThrow(
                        () -> GatewayException.parse("[_id] must be a string"));
                case "_source" -> source = SourceFilter.fromJson(e.getValue());
                case "routing" -> routing = Optional.of(JsonReads.text(e.getValue()).orElseGet(
                        () -> e.getValue().toString()));
                case "version", "_version" -> version = JsonReads.integer(e.getValue()).orElseThrow(
                        () -> GatewayException.parse("[" + e.getKey() + "] must be a number"));
                case "version_type", "_version_type" -> Versioning.VersionType.parse(JsonReads.text(e.getValue())
                        .orElseThrow(() -> GatewayException.parse("[" + e.getKey() + "] must be a string")));
                case "stored_fields" -> throw GatewayException.unsupported("[stored_fields] in _mget");
                default -> throw GatewayException.parse("unknown key [" + e.getKey() + "] for a "
                        + e.getValue().tokenName() + " in [docs]");
            }
        }
        if (index == null) {
            validation.add("index is missing for doc " + position);
        }
        if (id == null) {
            validation.add("id is missing for doc " + position);
        }
        return new GetCommand(index == null ? "" : index, id == null ? "" : id, source, routing, version);
    }

    private static List<JsonValue> array(JsonValue value, String field) {
        if (value instanceof JsonArray a) {
            return a.elements();
        }
        throw GatewayException.parse("[" + field + "] must be an array, got [" + value.tokenName() + "]");
    }
}
