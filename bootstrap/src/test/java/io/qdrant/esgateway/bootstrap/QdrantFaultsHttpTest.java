package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant.Fault;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Qdrant failing under the gateway: the fake answers 500 and 503, answers too late, drops the connection, sends half
 * an answer, or is not there at start. Every request that meets a fault gets an Elasticsearch-shaped 502, 503 or 504
 * (never 500), or a right answer where a read was retried; every acknowledged write is read back afterwards; an index
 * whose creation failed is either whole or absent; and the same gateway serves again once Qdrant does.
 */
class QdrantFaultsHttpTest {
    private static final Set<Integer> BACKEND_STATUSES = Set.of(502, 503, 504);

    /** One operation under a fault: its answer is right (2xx) or an ES-shaped backend error; never anything else. */
    private record Outcome(String what, EsClient.Reply reply) {
    }

    @Test
    void everyFaultIsAnEsShapedBackendErrorAndNothingAcknowledgedIsLost(@TempDir Path dir) throws Exception {
        try (FakeQdrant qdrant = new FakeQdrant();
             RunningGateway gateway = RunningGateway.start(dir, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                     qdrant.uri().toString(), "QEG_QDRANT_REQUEST_TIMEOUT", "1500ms", "QEG_WARM_UP", "off")) {
            EsClient es = gateway.client;
            assertThat(es.put("/faults").status()).isEqualTo(200);
            Map<String, String> acknowledged = new LinkedHashMap<>(); // id → the value of its last acknowledged write
            List<String> wrong = new ArrayList<>();
            int faultsMet = 0;
            int round = 0;
            Map<String, Function<Integer, EsClient.Reply>> operations = new LinkedHashMap<>();
            operations.put("index", n -> es.put("/faults/_doc/d" + n, "{\"v\":" + n + "}"));
            operations.put("bulk", n -> es.post("/faults/_bulk", "{\"index\":{\"_id\":\"b" + n + "\"}}\n{\"v\":" + n
                    + "}\n{\"index\":{\"_id\":\"c" + n + "\"}}\n{\"v\":" + n + "}\n"));
            operations.put("get", n -> es.get("/faults/_doc/d0"));
            operations.put("search", n -> es.post("/faults/_search", json("{'query':{'range':{'v':{'gte':0}}},"
                    + "'aggs':{'m':{'max':{'field':'v'}}}}")));
            operations.put("count", n -> es.get("/faults/_count"));
            operations.put("update", n -> es.post("/faults/_update/d0", "{\"doc\":{\"v\":" + n + "}}"));
            operations.put("create index", n -> es.put("/created-" + n));
            for (Fault fault : Fault.values()) {
                for (Map.Entry<String, Function<Integer, EsClient.Reply>> op : operations.entrySet()) {
                    round++;
                    if (op.getKey().equals("get") || op.getKey().equals("update")) {
                        assertThat(es.put("/faults/_doc/d0", "{\"v\":0}").status()).isIn(200, 201);
                        acknowledged.put("d0", "0");
                    }
                    int before = qdrant.faultsInjected();
                    qdrant.fault("*", "/collections/", fault, 3_000, 1);
                    EsClient.Reply reply = op.getValue().apply(round);
                    qdrant.clearFaults();
                    faultsMet += qdrant.faultsInjected() - before;
                    if (fault == Fault.DELAY) {
                        // the late request still lands (as on a real Qdrant after a client timeout): let it, so the
                        // next acknowledged write of the same document is the last one
                        Thread.sleep(2_000);
                    }
                    Outcome o = new Outcome(fault + " " + op.getKey(), reply);
                    check(o, wrong);
                    record(op.getKey(), round, reply, acknowledged);
                    if (op.getKey().equals("create index")) {
                        // whole or absent: created again it exists (or already did), and takes a document
                        EsClient.Reply again = es.put("/created-" + round);
                        assertThat(again.status()).as(o.what + " then again: " + again).isIn(200, 400);
                        if (again.status() == 400) {
                            assertThat(again.errorType()).isEqualTo("resource_already_exists_exception");
                        }
                        assertThat(es.put("/created-" + round + "/_doc/1", "{\"a\":1}").status())
                                .as(o.what + ": the index takes a document").isEqualTo(201);
                    }
                    // recovery without a restart: the same operation works at once without the fault
                    EsClient.Reply after = op.getValue().apply(round + 1000);
                    assertThat(after.status()).as(o.what + " then without the fault: " + after).isBetween(200, 299);
                    record(op.getKey(), round + 1000, after, acknowledged);
                }
            }
            assertThat(wrong).as("answers that are neither right nor ES-shaped backend errors").isEmpty();
            assertThat(faultsMet).as("faults the requests met").isGreaterThanOrEqualTo(Fault.values().length * 5);
            int verified = 0;
            for (Map.Entry<String, String> e : acknowledged.entrySet()) {
                EsClient.Reply got = es.get("/faults/_doc/" + e.getKey());
                assertThat(got.status()).as("acknowledged " + e.getKey() + ", then " + got).isEqualTo(200);
                assertThat(got.json().at("/_source/v").asText()).as(e.getKey()).isEqualTo(e.getValue());
                verified++;
            }
            assertThat(qdrant.violations).isEmpty();
            System.out.println("[faults] qdrant: " + faultsMet + " faults injected over " + round + " operations ("
                    + Fault.values().length + " kinds), " + verified + " acknowledged writes verified, 0 lost");
        }
    }

    @Test
    void qdrantAbsentAtStartIsA5xxAndTheGatewayServesOnceItIsThere(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket reserve = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = reserve.getLocalPort();
        }
        try (RunningGateway gateway = RunningGateway.start(dir, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                "http://127.0.0.1:" + port, "QEG_QDRANT_CONNECT_TIMEOUT", "500ms", "QEG_WARM_UP", "off")) {
            EsClient es = gateway.client;
            List<String> wrong = new ArrayList<>();
            check(new Outcome("create index without Qdrant", es.put("/later")), wrong);
            check(new Outcome("write without Qdrant", es.put("/later/_doc/1", "{\"a\":1}")), wrong);
            assertThat(wrong).isEmpty();
            // no half-created index: the failed creations left none behind
            EsClient.Reply search = es.get("/later/_search");
            assertThat(search.status()).as(search.toString()).isEqualTo(404);
            assertThat(search.errorType()).isEqualTo("index_not_found_exception");
            assertThat(es.get("/").status()).isEqualTo(200);
            try (FakeQdrant qdrant = new FakeQdrant(port)) {
                EsClient.Reply created = es.put("/later");
                assertThat(created.status()).as(created.toString()).isIn(200, 400);
                assertThat(es.put("/later/_doc/1?refresh=true", "{\"a\":1}").status()).isEqualTo(201);
                assertThat(es.get("/later/_search").json().at("/hits/total/value").asInt()).isEqualTo(1);
                assertThat(qdrant.violations).isEmpty();
            }
        }
    }

    /** A 2xx, or a 502/503/504 with an ES error body of that status; a 4xx only where the request itself is wrong. */
    private static void check(Outcome o, List<String> wrong) {
        int status = o.reply.status();
        if (status >= 200 && status < 300) {
            return;
        }
        JsonNode body;
        try {
            body = o.reply.json();
        } catch (RuntimeException e) {
            wrong.add(o.what + ": not JSON: " + o.reply);
            return;
        }
        boolean esShaped = body.path("status").asInt() == status && body.at("/error/type").isTextual()
                && body.at("/error/root_cause").isArray();
        boolean bulkItems = status == 200;
        if (!(BACKEND_STATUSES.contains(status) && esShaped) && !bulkItems) {
            wrong.add(o.what + ": " + o.reply);
        }
    }

    /** What an answer acknowledged: the documents it wrote, with their values. */
    private static void record(String op, int n, EsClient.Reply reply, Map<String, String> acknowledged) {
        if (reply.status() < 200 || reply.status() >= 300) {
            return;
        }
        switch (op) {
            case "index" -> acknowledged.put("d" + n, Integer.toString(n));
            case "update" -> acknowledged.put("d0", Integer.toString(n));
            case "bulk" -> {
                JsonNode items = reply.json().path("items");
                for (JsonNode item : items) {
                    JsonNode index = item.path("index");
                    if (index.path("status").asInt() / 100 == 2) {
                        acknowledged.put(index.path("_id").asText(), Integer.toString(n));
                    } else {
                        int s = index.path("status").asInt();
                        if (!BACKEND_STATUSES.contains(s)) {
                            throw new AssertionError("bulk item failed with " + s + ": " + item);
                        }
                    }
                }
            }
            default -> {
            }
        }
    }
}
