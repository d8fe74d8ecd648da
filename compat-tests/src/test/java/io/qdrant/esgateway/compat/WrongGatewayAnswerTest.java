package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.KnownDifferences;
import io.qdrant.esgateway.compat.harness.Oracles;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Proof that the harness can fail: a stub in front of the real gateway passes every request through and changes one
 * thing in the answer; the same scenario that passes through a faithful stub must then fail against the real
 * Elasticsearch oracle, and the failure must name the request and the differing path.
 */
class WrongGatewayAnswerTest {
    private static final Scenario ROOT = ScenarioLoader.load(Path.of(resource("/scenarios/root-info.yaml")));
    private static final Scenario LIFECYCLE = ScenarioLoader.load(Path.of(resource("/scenarios/index-lifecycle.yaml")));

    private static java.net.URI resource(String name) {
        try {
            return WrongGatewayAnswerTest.class.getResource(name).toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An HTTP server on 127.0.0.1 that forwards to {@code target} and rewrites each answer with {@code mutation}. */
    private static HttpServer stub(HttpTarget target, UnaryOperator<HttpTarget.Exchange> mutation) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] in = exchange.getRequestBody().readAllBytes();
            String uri = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            RequestSpec forwarded = new RequestSpec(exchange.getRequestMethod(), uri,
                    in.length == 0 ? null : new String(in, StandardCharsets.UTF_8),
                    exchange.getRequestHeaders().getFirst("Content-Type"), Map.of());
            HttpTarget.Exchange answer = mutation.apply(target.send(forwarded));
            answer.headers().forEach((k, v) -> {
                if (!k.equals("content-length") && !k.equals("connection") && !k.equals("date")
                        && !k.equals("transfer-encoding")) {
                    exchange.getResponseHeaders().add(k, v);
                }
            });
            byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(answer.status(), head || out.length == 0 ? -1 : out.length);
            if (!head && out.length > 0) {
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            }
            exchange.close();
        });
        server.start();
        return server;
    }

    private static ScenarioRunner runner(HttpServer stub) {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "needs the Elasticsearch oracle (-Doracle.engines)");
        return new ScenarioRunner(new HttpTarget("gateway behind a stub", stub.getAddress().getPort()),
                Oracles.engine(Engine.ELASTICSEARCH).target(), Engine.ELASTICSEARCH, KnownDifferences.load());
    }

    private static Scenario.Case rootCase() {
        return ROOT.cases().getFirst();
    }

    @Test
    void a_faithful_stub_passes() throws IOException {
        HttpServer stub = stub(Oracles.gateway(), a -> a);
        try {
            ScenarioRunner runner = runner(stub);
            runner.setUp(ROOT);
            assertThatCode(() -> runner.run(ROOT, rootCase())).doesNotThrowAnyException();
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void one_wrong_field_in_the_root_answer_fails_and_names_the_path() throws IOException {
        HttpServer stub = stub(Oracles.gateway(), a -> new HttpTarget.Exchange(a.status(), a.headers(),
                a.body().replace("You Know, for Search", "You know, for search")));
        try {
            ScenarioRunner runner = runner(stub);
            runner.setUp(ROOT);
            Throwable failure = catchThrowable(() -> runner.run(ROOT, rootCase()));
            assertThat(failure).isInstanceOf(AssertionError.class);
            assertThat(failure.getMessage())
                    .contains("scenario root-info, case \"" + rootCase().name() + "\"")
                    .contains("request: GET /")
                    .contains("first difference at /body/tagline")
                    .contains("\"You know, for search\"")
                    .contains("\"You Know, for Search\"")
                    .contains("raw gateway answer")
                    .contains("raw elasticsearch answer");
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void a_wrong_status_on_an_error_fails() throws IOException {
        HttpServer stub = stub(Oracles.gateway(), a -> a.status() == 404
                ? new HttpTarget.Exchange(400, a.headers(), a.body().replace("\"status\":404", "\"status\":400"))
                : a);
        try {
            ScenarioRunner runner = runner(stub);
            runner.setUp(LIFECYCLE);
            Scenario.Case missing = LIFECYCLE.cases().stream().filter(c -> c.name().equals("get a missing index"))
                    .findFirst().orElseThrow();
            Throwable failure = catchThrowable(() -> runner.run(LIFECYCLE, missing));
            assertThat(failure).isInstanceOf(AssertionError.class);
            assertThat(failure.getMessage()).contains("first difference at /status").contains("GET /missing");
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void a_missing_header_fails() throws IOException {
        HttpServer stub = stub(Oracles.gateway(), a -> {
            Map<String, String> headers = new HashMap<>(a.headers());
            headers.remove("x-elastic-product");
            return new HttpTarget.Exchange(a.status(), headers, a.body());
        });
        try {
            ScenarioRunner runner = runner(stub);
            runner.setUp(ROOT);
            Throwable failure = catchThrowable(() -> runner.run(ROOT, rootCase()));
            assertThat(failure).hasMessageContaining("first difference at /headers/x-elastic-product");
        } finally {
            stub.stop(0);
        }
        assertThat(List.of(ROOT.id(), LIFECYCLE.id())).containsExactly("root-info", "index-lifecycle");
    }
}
