package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.ACKNOWLEDGED;
import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.TemplateAdministration;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.ComponentTemplate;
import io.qdrant.esgateway.domain.index.IndexTemplate;
import io.qdrant.esgateway.domain.index.TemplateBody;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Index and component templates, and their simulation. The legacy {@code /_template} API is not implemented and
 * says so by name.
 *
 * <pre>
 * curl -XPUT localhost:9200/_component_template/base -H 'Content-Type: application/json' -d '{"template":{"settings":{"number_of_replicas":0}}}'
 * curl -XPUT localhost:9200/_index_template/logs -H 'Content-Type: application/json' -d '{"index_patterns":["logs-*"],"composed_of":["base"]}'
 * curl -XPOST localhost:9200/_index_template/_simulate_index/logs-1
 * </pre>
 */
final class TemplateEndpoints {
    private static final String GET_PARAMS = "local,master_timeout,flat_settings,include_defaults";
    private static final String PUT_PARAMS = "create,cause,master_timeout";
    private final TemplateAdministration templates;

    TemplateEndpoints(TemplateAdministration templates) {
        this.templates = templates;
    }

    void register(Router router) {
        String legacy = "legacy index templates (/_template)";
        router.add(route("GET,HEAD", "/_template", "indices.get_template", GET_PARAMS, false,
                        r -> { throw GatewayException.unsupported(legacy); }))
                .add(route("PUT,POST,GET,HEAD,DELETE", "/_template/{name}", "indices.put_template",
                        "create,cause,master_timeout,timeout,local,flat_settings,include_defaults,order", true,
                        r -> { throw GatewayException.unsupported(legacy); }))
                .add(route("GET,HEAD", "/_index_template", "indices.get_index_template", GET_PARAMS, false,
                        this::getIndexTemplates))
                .add(route("GET,HEAD", "/_index_template/{name}", "indices.get_index_template", GET_PARAMS, false,
                        this::getIndexTemplates))
                .add(route("PUT,POST", "/_index_template/{name}", "indices.put_index_template", PUT_PARAMS, true,
                        this::putIndexTemplate))
                .add(route("DELETE", "/_index_template/{name}", "indices.delete_index_template",
                        "master_timeout,timeout", false, this::deleteIndexTemplates))
                .add(route("GET,HEAD", "/_component_template", "cluster.get_component_template", GET_PARAMS, false,
                        this::getComponentTemplates))
                .add(route("GET,HEAD", "/_component_template/{name}", "cluster.get_component_template", GET_PARAMS,
                        false, this::getComponentTemplates))
                .add(route("PUT,POST", "/_component_template/{name}", "cluster.put_component_template", PUT_PARAMS,
                        true, this::putComponentTemplate))
                .add(route("DELETE", "/_component_template/{name}", "cluster.delete_component_template",
                        "master_timeout,timeout", false, this::deleteComponentTemplates))
                .add(route("POST", "/_index_template/_simulate_index/{name}", "indices.simulate_index_template",
                        "master_timeout,include_defaults", true, this::simulateIndex))
                .add(route("POST", "/_index_template/_simulate/{name}", "indices.simulate_template",
                        "master_timeout,include_defaults,create,cause", true, this::simulate))
                .add(route("POST", "/_index_template/_simulate", "indices.simulate_template",
                        "master_timeout,include_defaults,create,cause", true, this::simulate));
    }

    private EsResponse putIndexTemplate(EsRequest request) {
        String name = request.pathParam("name");
        templates.putIndexTemplate(IndexTemplate.parse(name, request.requiredBody()), request.flag("create", false));
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse putComponentTemplate(EsRequest request) {
        String name = request.pathParam("name");
        templates.putComponentTemplate(ComponentTemplate.parse(name, request.requiredBody()),
                request.flag("create", false));
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse getIndexTemplates(EsRequest request) {
        boolean flat = readFlags(request);
        List<JsonValue> out = new ArrayList<>();
        for (IndexTemplate t : templates.indexTemplates(request.optionalPathParam("name"))) {
            out.add(JsonObjectBuilder.object().put("name", t.name())
                    .put("index_template", flat ? flatSettings(t.toJson()) : t.toJson()).build());
        }
        return EsResponse.ok(JsonObjectBuilder.object().put("index_templates", new JsonValue.JsonArray(out)).build());
    }

    private EsResponse getComponentTemplates(EsRequest request) {
        boolean flat = readFlags(request);
        List<JsonValue> out = new ArrayList<>();
        Optional<String> name = request.optionalPathParam("name");
        for (ComponentTemplate t : templates.componentTemplates(name)) {
            out.add(JsonObjectBuilder.object().put("name", t.name())
                    .put("component_template", flat ? flatSettings(t.toJson()) : t.toJson()).build());
        }
        // Elasticsearch 8.15 answers a component wildcard that matches nothing with 404 and the empty list
        return EsResponse.json(out.isEmpty() && name.isPresent() ? 404 : 200, JsonObjectBuilder.object()
                .put("component_templates", new JsonValue.JsonArray(out)).build());
    }

    private static boolean readFlags(EsRequest request) {
        if (request.flag("include_defaults", false)) {
            throw GatewayException.unsupported("[include_defaults=true] on templates");
        }
        return request.flag("flat_settings", false);
    }

    /** The template object with its settings as flat {@code index.*} keys ({@code flat_settings=true}). */
    private static JsonObject flatSettings(JsonObject rendered) {
        if (!(rendered.get("template") instanceof JsonObject template)
                || !(template.get("settings") instanceof JsonObject settings)) {
            return rendered;
        }
        Map<String, JsonValue> t = new LinkedHashMap<>(template.members());
        t.put("settings", new JsonObject(new java.util.TreeMap<>(TemplateBody.normaliseSettings(settings))));
        Map<String, JsonValue> out = new LinkedHashMap<>(rendered.members());
        out.put("template", new JsonObject(t));
        return new JsonObject(out);
    }

    private EsResponse deleteIndexTemplates(EsRequest request) {
        templates.deleteIndexTemplates(request.pathParam("name"));
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse deleteComponentTemplates(EsRequest request) {
        templates.deleteComponentTemplates(request.pathParam("name"));
        return EsResponse.ok(ACKNOWLEDGED);
    }

    private EsResponse simulateIndex(EsRequest request) {
        noDefaults(request);
        String index = request.pathParam("name");
        Optional<IndexTemplate> extra = request.body()
                .map(b -> IndexTemplate.parse("simulate_index_template_" + index, b));
        return EsResponse.ok(templates.simulateIndex(index, extra));
    }

    private EsResponse simulate(EsRequest request) {
        noDefaults(request);
        Optional<String> name = request.optionalPathParam("name");
        Optional<IndexTemplate> body = request.body()
                .map(b -> IndexTemplate.parse(name.orElse("simulate_template"), b));
        return EsResponse.ok(templates.simulateTemplate(name, body));
    }

    private static void noDefaults(EsRequest request) {
        if (request.flag("include_defaults", false)) {
            throw GatewayException.unsupported("[include_defaults=true] on template simulation");
        }
    }
}
