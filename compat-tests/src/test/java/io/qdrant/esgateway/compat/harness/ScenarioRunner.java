package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs scenarios against the gateway and one oracle. Each scenario starts from an empty cluster on both sides. */
public final class ScenarioRunner {
    private final HttpTarget gateway;
    private final HttpTarget oracle;
    private final Engine engine;
    private final KnownDifferences known;
    /** Each side's captured values ({@link Scenario.Case#capture}), for the current scenario. */
    private final java.util.Map<String, String> gatewayValues = new java.util.HashMap<>();
    private final java.util.Map<String, String> oracleValues = new java.util.HashMap<>();

    public ScenarioRunner(HttpTarget gateway, HttpTarget oracle, Engine engine, KnownDifferences known) {
        this.gateway = gateway;
        this.oracle = oracle;
        this.engine = engine;
        this.known = known;
    }

    /** Deletes every index (and so every alias) on both sides, then runs the setup steps; any failure throws. */
    public void setUp(Scenario scenario) {
        gatewayValues.clear();
        oracleValues.clear();
        deleteAllIndices(gateway);
        deleteAllIndices(oracle);
        deleteAllTemplates(gateway);
        deleteAllTemplates(oracle);
        for (Scenario.Step step : scenario.setup()) {
            if (Capabilities.gatewayHas(step.requires())) {
                expectSuccess(gateway, step.request(), scenario);
            }
            expectSuccess(oracle, step.request(), scenario);
        }
    }

    /**
     * Runs one case: compared when the gateway has what it requires, else sent to the oracle only (which must answer
     * 2xx). Throws an {@link AssertionError} with the readable report when the answers differ.
     */
    public void run(Scenario scenario, Scenario.Case c) {
        if (!Capabilities.gatewayHas(c.requires())) {
            HttpTarget.Exchange answer = oracle.send(c.request());
            if (answer.status() >= 300) {
                throw new AssertionError("[" + engine.id() + "] scenario " + scenario.id() + ", case \"" + c.name()
                        + "\" (oracle only, the gateway lacks " + c.requires() + "): " + engine.displayName()
                        + " refused the request\n  request: " + c.request().describe() + "\n  answer: " + answer);
            }
            return;
        }
        HttpTarget.Exchange g = gateway.send(filled(c.request(), gatewayValues));
        HttpTarget.Exchange o = oracle.send(filled(c.request(), oracleValues));
        c.capture().forEach((name, pointer) -> {
            // the pointer addresses the answer as compared: {"status":…,"body":…}
            String inBody = pointer.startsWith("/body") ? pointer.substring("/body".length()) : pointer;
            gatewayValues.put(name, Json.parseOrText(g.body()).at(inBody).asText());
            oracleValues.put(name, Json.parseOrText(o.body()).at(inBody).asText());
        });
        Optional<String> report = Comparison.compare(scenario, c, engine, g, o, known);
        if (report.isPresent()) {
            throw new AssertionError(report.get() + "\n  raw gateway answer: " + g + "\n  raw " + engine.id()
                    + " answer: " + o);
        }
    }

    /** The request with each {@code {{name}}} replaced by the side's captured value. */
    private static RequestSpec filled(RequestSpec request, java.util.Map<String, String> values) {
        if (values.isEmpty()) {
            return request;
        }
        String path = request.path();
        String body = request.body();
        for (java.util.Map.Entry<String, String> e : values.entrySet()) {
            String token = "{{" + e.getKey() + "}}";
            path = path.replace(token, e.getValue());
            body = body == null ? null : body.replace(token, e.getValue());
        }
        return new RequestSpec(request.method(), path, body, request.contentType(), request.headers());
    }

    private void expectSuccess(HttpTarget target, RequestSpec request, Scenario scenario) {
        HttpTarget.Exchange answer = target.send(request);
        if (answer.status() >= 300) {
            throw new AssertionError("[" + engine.id() + "] scenario " + scenario.id() + ": setup request failed on "
                    + target.name() + "\n  request: " + request.describe() + "\n  answer: " + answer);
        }
        if (request.path().contains("_bulk")) {
            JsonNode body = Json.parseOrText(answer.body());
            if (body.path("errors").asBoolean(false)) {
                throw new AssertionError("[" + engine.id() + "] scenario " + scenario.id() + ": setup _bulk had item "
                        + "errors on " + target.name() + ": " + answer);
            }
        }
    }

    /**
     * Deletes every index template, then every component template (ES refuses to drop a component in use). A 4xx
     * (none there, or an engine that words it otherwise) leaves nothing to clean.
     */
    public static void deleteAllTemplates(HttpTarget target) {
        for (String path : List.of("/_index_template/*", "/_component_template/*")) {
            HttpTarget.Exchange deleted = target.send(RequestSpec.of("DELETE", path));
            if (deleted.status() >= 500) {
                throw new IllegalStateException(target.name() + ": cannot delete " + path + ": " + deleted);
            }
        }
    }

    public static void deleteAllIndices(HttpTarget target) {
        // hidden indices too
        HttpTarget.Exchange cat = target.send(RequestSpec.of("GET",
                "/_cat/indices?format=json&h=index&expand_wildcards=all"));
        if (cat.status() != 200) {
            throw new IllegalStateException(target.name() + ": cannot list indices: " + cat);
        }
        List<String> names = new ArrayList<>();
        Json.parseOrText(cat.body()).forEach(row -> names.add(row.path("index").asText()));
        if (!names.isEmpty()) {
            HttpTarget.Exchange deleted = target.send(RequestSpec.of("DELETE", "/" + String.join(",", names)));
            if (deleted.status() != 200) {
                throw new IllegalStateException(target.name() + ": cannot delete " + names + ": " + deleted);
            }
        }
    }
}
