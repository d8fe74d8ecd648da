package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.function.Supplier;

/**
 * Operations endpoints that are not Elasticsearch's: liveness, readiness (each dependency reachable), and the
 * Prometheus scrape. They shadow {@code GET /{index}} for indices named {@code healthz}, {@code readyz} and
 * {@code metrics}; every other method on those names still reaches the index.
 */
final class OpsEndpoints {
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final ClusterStatus status;
    private final Supplier<String> scrape;

    OpsEndpoints(ClusterStatus status, Supplier<String> scrape) {
        this.status = status;
        this.scrape = scrape;
    }

    void register(Router router) {
        router.add(route("GET", "/healthz", "gateway.healthz", "", false,
                        r -> EsResponse.ok(JsonObjectBuilder.object().put("status", "ok").build())))
                .add(route("GET", "/readyz", "gateway.readyz", "", false, r -> readiness()))
                .add(route("GET", "/metrics", "gateway.metrics", "", false,
                        r -> EsResponse.text(200, scrape.get(), PROMETHEUS_TEXT)));
    }

    private EsResponse readiness() {
        ClusterStatus.Readiness readiness = status.readiness();
        List<JsonValue> problems = readiness.problems().stream().map(p -> (JsonValue) JsonValue.string(p)).toList();
        JsonObjectBuilder dependencies = JsonObjectBuilder.object();
        for (ClusterStatus.Dependency d : readiness.dependencies()) {
            JsonObjectBuilder one = JsonObjectBuilder.object().put("status", d.problem().isEmpty() ? "up" : "down");
            d.problem().ifPresent(p -> one.put("error", p));
            dependencies.put(d.name(), one.build());
        }
        return EsResponse.json(readiness.ready() ? 200 : 503, JsonObjectBuilder.object()
                .put("status", readiness.ready() ? "ready" : "not ready")
                .put("problems", new JsonValue.JsonArray(problems))
                .put("dependencies", dependencies.build())
                .build());
    }
}
