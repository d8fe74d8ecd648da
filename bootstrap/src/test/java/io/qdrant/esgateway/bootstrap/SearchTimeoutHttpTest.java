package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.search.SearchDeadline;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The search {@code timeout} honoured on both backends, as Elasticsearch: a search that reaches its deadline stops
 * collecting and answers 200 with what it found so far and {@code timed_out: true}. Time is driven by a clock that
 * passes the deadline after a given number of readings, so the cut falls at the same point on every run.
 */
class SearchTimeoutHttpTest {
    private static final int DOCUMENTS = 1000;

    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    /** A clock that stands still for {@code readings} readings (the deadline's start among them), then jumps. */
    private static LongSupplier passesAfter(int readings) {
        AtomicInteger read = new AtomicInteger();
        return () -> read.incrementAndGet() <= readings ? 0L : 1_000_000_000_000_000L;
    }

    private static EsClient indexed(String backend, String index) {
        EsClient es = gateways.client(backend);
        if (es.get("/" + index).status() == 404) {
            es.put("/" + index, json("{'mappings':{'properties':{'n':{'type':'long'},'k':{'type':'keyword'}}}}"));
            StringBuilder bulk = new StringBuilder();
            for (int i = 0; i < DOCUMENTS; i++) {
                bulk.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{\"n\":").append(i)
                        .append(",\"k\":\"k").append(i % 7).append("\"}\n");
            }
            EsClient.Reply reply = es.post("/" + index + "/_bulk?refresh=true", bulk.toString());
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.json().path("errors").asBoolean()).isFalse();
        }
        return es;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aSearchThatReachesItsTimeoutAnswersWhatItCollectedWithTimedOut(String backend) throws Exception {
        EsClient es = indexed(backend, "slow");
        String search = "{'size':" + DOCUMENTS + ",'track_total_hits':true%s}";
        try (AutoCloseable clock = SearchDeadline.clock(passesAfter(2))) {
            EsClient.Reply whole = es.post("/slow/_search", json(search.formatted("")));
            assertThat(whole.status()).isEqualTo(200);
            assertThat(whole.json().path("timed_out").asBoolean()).isFalse();
            assertThat(whole.json().at("/hits/hits").size()).isEqualTo(DOCUMENTS);
        }
        for (String timeout : new String[] {"?timeout=1s", ""}) {
            String body = search.formatted(timeout.isEmpty() ? ",'timeout':'1s'" : "");
            try (AutoCloseable clock = SearchDeadline.clock(passesAfter(2))) {
                EsClient.Reply cut = es.post("/slow/_search" + timeout, json(body));
                assertThat(cut.status()).as(cut.toString()).isEqualTo(200);
                assertThat(cut.json().path("timed_out").asBoolean()).as(timeout).isTrue();
                int hits = cut.json().at("/hits/hits").size();
                assertThat(hits).as(timeout).isPositive().isLessThan(DOCUMENTS);
                assertThat(cut.json().at("/_shards/failed").asInt()).isZero();
            }
        }
        // a timeout that is not reached changes nothing
        try (AutoCloseable clock = SearchDeadline.clock(() -> 0L)) {
            EsClient.Reply intime = es.post("/slow/_search?timeout=1s", json(search.formatted("")));
            assertThat(intime.json().path("timed_out").asBoolean()).isFalse();
            assertThat(intime.json().at("/hits/hits").size()).isEqualTo(DOCUMENTS);
            assertThat(intime.json().at("/hits/total/value").asInt()).isEqualTo(DOCUMENTS);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aScrollIgnoresTheTimeoutAsElasticsearch(String backend) throws Exception {
        EsClient es = indexed(backend, "slow");
        try (AutoCloseable clock = SearchDeadline.clock(passesAfter(2))) {
            EsClient.Reply first = es.post("/slow/_search?scroll=1m&timeout=1s",
                    json("{'size':" + DOCUMENTS + "}"));
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.json().path("timed_out").asBoolean()).isFalse();
            assertThat(first.json().at("/hits/hits").size()).isEqualTo(DOCUMENTS);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void eachSearchOfAMultiSearchHasItsOwnTimeout(String backend) throws Exception {
        EsClient es = indexed(backend, "slow");
        String ndjson = "{\"index\":\"slow\"}\n{\"size\":" + DOCUMENTS + "}\n"
                + "{\"index\":\"slow\"}\n{\"size\":" + DOCUMENTS + ",\"timeout\":\"1s\"}\n";
        try (AutoCloseable clock = SearchDeadline.clock(passesAfter(2))) {
            EsClient.Reply reply = es.post("/_msearch", ndjson);
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.json().at("/responses/0/timed_out").asBoolean()).isFalse();
            assertThat(reply.json().at("/responses/0/hits/hits").size()).isEqualTo(DOCUMENTS);
            assertThat(reply.json().at("/responses/1/timed_out").asBoolean()).isTrue();
            assertThat(reply.json().at("/responses/1/hits/hits").size()).isLessThan(DOCUMENTS);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aggregationsCutShortByTheTimeoutCountWhatWasCollected(String backend) throws Exception {
        EsClient es = indexed(backend, "slow");
        String aggs = "{'size':0,'aggs':{'c':{'value_count':{'field':'n'}}}%s}";
        // first the search cut short (the request cache holds nothing for it yet), then the same search whole: the
        // partial answer was not cached
        try (AutoCloseable clock = SearchDeadline.clock(passesAfter(2))) {
            EsClient.Reply cut = es.post("/slow/_search", json(aggs.formatted(",'timeout':'1s'")));
            assertThat(cut.status()).as(cut.toString()).isEqualTo(200);
            if (cut.json().path("timed_out").asBoolean()) {
                assertThat(cut.json().at("/aggregations/c/value").asInt()).isLessThan(DOCUMENTS);
            } else {
                assertThat(cut.json().at("/aggregations/c/value").asInt()).isEqualTo(DOCUMENTS);
            }
            if (backend.equals("lucene")) {
                assertThat(cut.json().path("timed_out").asBoolean()).isTrue();
            }
        }
        for (String timeout : new String[] {"", ",'timeout':'1s'"}) {
            EsClient.Reply whole = es.post("/slow/_search", json(aggs.formatted(timeout)));
            assertThat(whole.json().path("timed_out").asBoolean()).isFalse();
            assertThat(whole.json().at("/aggregations/c/value").asInt()).isEqualTo(DOCUMENTS);
        }
    }
}
