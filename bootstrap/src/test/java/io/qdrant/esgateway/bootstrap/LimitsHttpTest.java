package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The limits that keep one request from hurting the others, on both backends: {@code search.max_buckets} over the
 * whole answer, the search {@code timeout}'s errors, admission (requests running and queued: 429
 * {@code es_rejected_execution_exception}) and indexing pressure (write bytes in flight: 429), as Elasticsearch.
 */
class LimitsHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void maxBucketsCountsEveryBucketOfTheAnswerAsElasticsearch(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/buckets", json("{'mappings':{'properties':{'k':{'type':'keyword'},'n':{'type':'long'}}}}"));
        es.post("/buckets/_bulk?refresh=true", "{\"index\":{\"_id\":\"1\"}}\n{\"k\":\"a\",\"n\":0}\n"
                + "{\"index\":{\"_id\":\"2\"}}\n{\"k\":\"b\",\"n\":1}\n");
        // the thresholds measured on Elasticsearch 8.15 (scenario limits): 35,536 buckets of one histogram that
        // adds empty buckets pass, 35,537 fail; under two terms buckets 16,385 pass and 20,001 fail
        EsClient.Reply one = es.post("/buckets/_search", json("{'size':0,'aggs':{'h':" + histogram(35_535) + "}}"));
        assertThat(one.status()).as(one.toString().substring(0, 200)).isEqualTo(200);
        assertThat(one.json().at("/aggregations/h/buckets").size()).isEqualTo(35_536);
        tooMany(es.post("/buckets/_search", json("{'size':0,'aggs':{'h':" + histogram(35_536) + "}}")));
        String terms = "{'size':0,'aggs':{'t':{'terms':{'field':'k'},'aggs':{'h':%s}}}}";
        assertThat(es.post("/buckets/_search", json(terms.formatted(histogram(16_384)))).status()).isEqualTo(200);
        tooMany(es.post("/buckets/_search", json(terms.formatted(histogram(20_000)))));
        // with typed_keys the same
        tooMany(es.post("/buckets/_search?typed_keys", json(terms.formatted(histogram(20_000)))));
    }

    private static String histogram(int max) {
        return "{'histogram':{'field':'n','interval':1,'min_doc_count':0,'extended_bounds':{'min':0,'max':" + max
                + "}}}";
    }

    private static void tooMany(EsClient.Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.errorType()).isEqualTo("search_phase_execution_exception");
        assertThat(reply.json().at("/error/caused_by/type").asText()).isEqualTo("too_many_buckets_exception");
        assertThat(reply.json().at("/error/caused_by/reason").asText()).isEqualTo("Trying to create too many"
                + " buckets. Must be less than or equal to: [65536] but this number of buckets was exceeded. This"
                + " limit can be set by changing the [search.max_buckets] cluster level setting.");
        assertThat(reply.json().at("/error/caused_by/max_buckets").asInt()).isEqualTo(65_536);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void theSearchTimeoutIsCheckedAsElasticsearchChecksIt(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/timeouts/_doc/1?refresh=true", json("{'n':1}"));
        EsClient.Reply ok = es.post("/timeouts/_search?timeout=5s", json("{'timeout':'2s','query':{'match_all':{}}}"));
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().path("timed_out").asBoolean()).isFalse();
        assertThat(ok.json().at("/hits/total/value").asInt()).isEqualTo(1);
        EsClient.Reply body = es.post("/timeouts/_search", json("{'timeout':'soon'}"));
        assertThat(body.status()).isEqualTo(400);
        assertThat(body.errorType()).isEqualTo("illegal_argument_exception");
        assertThat(body.errorReason()).isEqualTo("failed to parse setting [timeout] with value [soon] as a time"
                + " value: unit is missing or unrecognized");
        EsClient.Reply url = es.get("/timeouts/_search?timeout=10");
        assertThat(url.status()).isEqualTo(400);
        assertThat(url.errorType()).isEqualTo("illegal_argument_exception");
        EsClient.Reply negative = es.get("/timeouts/_search?timeout=-3s");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.errorType()).isEqualTo("illegal_argument_exception");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aQueryOfMoreClausesThanTheLimitIsA400(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/clauses/_doc/1?refresh=true", json("{'t':'w v'}"));
        EsClient.Reply within = es.post("/clauses/_search", json("{'query':{'match':{'t':'"
                + "w ".repeat(1000) + "'}}}"));
        assertThat(within.status()).as(within.toString()).isEqualTo(200);
        assertThat(within.json().at("/hits/total/value").asInt()).isEqualTo(1);
        EsClient.Reply over = es.post("/clauses/_search", json("{'query':{'match':{'t':'" + "w ".repeat(3000)
                + "'}}}"));
        assertThat(over.status()).as(over.toString()).isEqualTo(400);
        assertThat(over.body()).contains("maxClauseCount is set to 1024");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void indexingPressureRefusesWritesPastTheBytesInFlight(String backend, @TempDir Path dir) throws Exception {
        try (FakeQdrant qdrant = new FakeQdrant();
             RunningGateway gateway = start(backend, dir, qdrant, "QEG_INDEXING_PRESSURE_MEMORY_LIMIT", "2kb")) {
            EsClient es = gateway.client;
            StringBuilder small = new StringBuilder();
            for (int i = 0; i < 10; i++) {
                small.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{\"n\":").append(i).append("}\n");
            }
            assertThat(es.post("/pressure/_bulk?refresh=true", small.toString()).status()).isEqualTo(200);
            String big = small.toString().repeat(20);
            EsClient.Reply refused = es.post("/pressure/_bulk", big);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
            assertThat(refused.errorType()).isEqualTo("es_rejected_execution_exception");
            assertThat(refused.json().at("/error/root_cause/0/type").asText())
                    .isEqualTo("es_rejected_execution_exception");
            assertThat(refused.errorReason()).isEqualTo("rejected execution of coordinating operation"
                    + " [coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes="
                    + big.length() + ", max_coordinating_and_primary_bytes=2048]");
            EsClient.Reply single = es.put("/pressure/_doc/big", "{\"text\":\"" + "x".repeat(3000) + "\"}");
            assertThat(single.status()).isEqualTo(429);
            // nothing of the refused writes was applied, and the bytes were given back
            assertThat(es.get("/pressure/_count").json().path("count").asInt()).isEqualTo(10);
            assertThat(es.post("/pressure/_bulk?refresh=true", small.toString()).status()).isEqualTo(200);
            if (backend.equals("qdrant")) {
                assertThat(qdrant.violations).isEmpty();
            }
        }
    }

    @Test
    void requestsPastTheRunningAndQueuedBoundsAreRefusedAndTheOthersServed(@TempDir Path dir) throws Exception {
        try (FakeQdrant qdrant = new FakeQdrant();
             RunningGateway gateway = start("qdrant", dir, qdrant, "QEG_MAX_CONCURRENT_REQUESTS", "1",
                     "QEG_MAX_QUEUED_REQUESTS", "1")) {
            EsClient es = gateway.client;
            assertThat(es.put("/admit/_doc/1?refresh=true", json("{'n':1}")).status()).isEqualTo(201);
            // the next two reads of the fake answer after 1.5 s: one search runs, one waits, the third is refused
            qdrant.fault("POST", "/points/", FakeQdrant.Fault.DELAY, 1500, 2);
            CompletableFuture<EsClient.Reply> running = CompletableFuture.supplyAsync(() -> es.get("/admit/_search"));
            Thread.sleep(400);
            CompletableFuture<EsClient.Reply> queued = CompletableFuture.supplyAsync(() -> es.get("/admit/_search"));
            Thread.sleep(400);
            EsClient.Reply refused = es.get("/admit/_search");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
            assertThat(refused.errorType()).isEqualTo("es_rejected_execution_exception");
            assertThat(refused.errorReason()).startsWith("rejected execution of request [GET /admit/_search]")
                    .contains("queue capacity = 1");
            assertThat(running.get().status()).isEqualTo(200);
            assertThat(queued.get().status()).isEqualTo(200);
            assertThat(running.get().json().at("/hits/total/value").asInt()).isEqualTo(1);
            assertThat(es.get("/admit/_search").status()).isEqualTo(200);
            assertThat(gateway.gateway.port()).isPositive();
        }
    }

    private static RunningGateway start(String backend, Path dir, FakeQdrant qdrant, String... env) throws Exception {
        Path data = Files.createDirectories(dir.resolve(backend));
        String[] all = backend.equals("qdrant")
                ? Stream.concat(Stream.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString(),
                        "QEG_WARM_UP", "off"), Stream.of(env)).toArray(String[]::new)
                : Stream.concat(Stream.of("QEG_WARM_UP", "off"), Stream.of(env)).toArray(String[]::new);
        return RunningGateway.start(data, all);
    }
}
