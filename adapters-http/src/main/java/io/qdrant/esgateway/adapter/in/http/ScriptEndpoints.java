package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.script.StoredScript;
import java.util.Optional;

/**
 * Stored scripts: {@code PUT|POST|GET|DELETE /_scripts/{id}}, kept in the catalog and used as
 * {@code "script": {"id": …}}.
 */
final class ScriptEndpoints {
    private final IndexAdministration admin;

    ScriptEndpoints(IndexAdministration admin) {
        this.admin = admin;
    }

    void register(Router router) {
        router.add(route("PUT,POST", "/_scripts/{id}", "put_script", "timeout,master_timeout,context", true,
                        this::put))
                .add(route("GET", "/_scripts/{id}", "get_script", "master_timeout", false, this::get))
                .add(route("DELETE", "/_scripts/{id}", "delete_script", "timeout,master_timeout", false,
                        this::delete));
    }

    private EsResponse put(EsRequest request) {
        admin.putStoredScript(request.pathParam("id"), StoredScript.parseBody(request.requiredBody()));
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).build());
    }

    private EsResponse get(EsRequest request) {
        String id = request.pathParam("id");
        Optional<StoredScript> script = admin.storedScript(id);
        JsonObjectBuilder body = JsonObjectBuilder.object().put("_id", id).put("found", script.isPresent());
        script.ifPresent(s -> body.put("script", JsonObjectBuilder.object().put("lang", s.lang())
                .put("source", s.source())));
        return EsResponse.json(script.isPresent() ? 200 : 404, body.build());
    }

    private EsResponse delete(EsRequest request) {
        admin.deleteStoredScript(request.pathParam("id"));
        return EsResponse.ok(JsonObjectBuilder.object().put("acknowledged", true).build());
    }
}
