package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared response cache over HTTP: a real gateway (SQLite catalog, Lucene store) in mode {@code on} and one in
 * mode {@code coordinate}, each on its own key prefix of one real Redis/Valkey server.
 */
class SharedResponseCacheHttpTest {
    @TempDir
    static Path onData;
    @TempDir
    static Path coordinateData;
    static RedisTestServer redis;
    static RunningGateway on;
    static RunningGateway coordinate;

    @BeforeAll
    static void start() {
        redis = RedisTestServer.start();
        on = RunningGateway.start(onData, "QEG_RESPONSE_CACHE", "on", "QEG_REDIS_URL", redis.url(),
                "QEG_REDIS_PREFIX", "on:");
        coordinate = RunningGateway.start(coordinateData, "QEG_RESPONSE_CACHE", "coordinate", "QEG_REDIS_URL",
                redis.url(), "QEG_REDIS_PREFIX", "coordinate:", "QEG_RESPONSE_CACHE_MIN_USES", "1");
        for (RunningGateway g : new RunningGateway[] {on, coordinate}) {
            g.client.put("/books", json("{'mappings':{'properties':{'tag':{'type':'keyword'},'year':{'type':'integer'}}}}"));
            g.client.put("/books/_doc/1?refresh=true", json("{'tag':'a','year':2001}"));
        }
    }

    @AfterAll
    static void stop() {
        if (on != null) {
            on.close();
        }
        if (coordinate != null) {
            coordinate.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** {@code qeg_response_cache_total{outcome}} from {@code /metrics}. */
    private static long outcome(RunningGateway g, String outcome) {
        String metrics = g.client.get("/metrics").body();
        Matcher m = Pattern.compile("qeg_response_cache_total\\{[^}]*outcome=\"" + outcome + "\"[^}]*} ([0-9.E]+)")
                .matcher(metrics);
        assertThat(m.find()).as("metric for " + outcome + " in " + metrics).isTrue();
        return (long) Double.parseDouble(m.group(1));
    }

    /** {@link #outcome}, once it reaches {@code atLeast} (a publication runs after its answer) or after 10 s. */
    private static long awaitOutcome(RunningGateway g, String outcome, long atLeast) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        long value = outcome(g, outcome);
        while (value < atLeast && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            value = outcome(g, outcome);
        }
        return value;
    }

    /** How many times a search was planned (computed): {@code qeg_plan_path_total{part="hits"}} summed. */
    private static long computed(RunningGateway g) {
        Matcher m = Pattern.compile("qeg_plan_path_total\\{part=\"hits\"[^}]*} ([0-9.E]+)")
                .matcher(g.client.get("/metrics").body());
        long sum = 0;
        while (m.find()) {
            sum += (long) Double.parseDouble(m.group(1));
        }
        return sum;
    }

    @Test
    void aSearchUsingAStoredScriptSeesTheScriptAsStoredNow() {
        on.client.put("/_scripts/boost", "{\"script\":{\"lang\":\"painless\",\"source\":\"doc['year'].value * 2\"}}");
        String body = json("{'query':{'script_score':{'query':{'match_all':{}},'script':{'id':'boost'}}}}");
        assertThat(on.client.post("/books/_search", body).body()).contains("\"_score\":4002.0");
        on.client.post("/books/_search", body);

        on.client.put("/_scripts/boost", "{\"script\":{\"lang\":\"painless\",\"source\":\"doc['year'].value * 3\"}}");

        assertThat(on.client.post("/books/_search", body).body()).contains("\"_score\":6003.0");
    }

    @Test
    void aRepeatedSearchIsServedFromTheSharedCacheAndAnAcknowledgedWriteIsNeverHidden() {
        String body = json("{'query':{'term':{'tag':'a'}},'aggs':{'years':{'terms':{'field':'year'}}}}");
        long notAdmitted = outcome(on, "not_admitted");
        long published = outcome(on, "publish");
        EsClient.Reply first = on.client.post("/books/_search", body);
        assertThat(outcome(on, "not_admitted")).as("computed once: not published").isEqualTo(notAdmitted + 1);
        on.client.post("/books/_search", body);
        assertThat(awaitOutcome(on, "publish", published + 1)).as("published on its second computation")
                .isEqualTo(published + 1);
        long hits = outcome(on, "hit");
        long plans = computed(on);
        EsClient.Reply second = on.client.post("/books/_search", body);
        assertThat(outcome(on, "hit")).isEqualTo(hits + 1);
        assertThat(computed(on)).as("served without computing").isEqualTo(plans);
        assertThat(second.json().path("hits")).isEqualTo(first.json().path("hits"));
        assertThat(second.json().path("aggregations")).isEqualTo(first.json().path("aggregations"));
        assertThat(second.json().has("took")).isTrue();

        on.client.put("/books/_doc/2?refresh=true", json("{'tag':'a','year':2002}"));
        EsClient.Reply after = on.client.post("/books/_search", body);
        assertThat(after.json().at("/hits/total/value").asLong()).isEqualTo(first.json().at("/hits/total/value")
                .asLong() + 1);
        on.client.delete("/books/_doc/2?refresh=true");
        assertThat(on.client.post("/books/_search", body).json().at("/hits/total/value").asLong())
                .isEqualTo(first.json().at("/hits/total/value").asLong());
    }

    @Test
    void countsAndMsearchSlotsAreCachedToo() {
        long hits = outcome(on, "hit");
        long published = outcome(on, "publish");
        on.client.post("/books/_count", json("{'query':{'term':{'tag':'a'}}}"));
        on.client.post("/books/_count", json("{'query':{'term':{'tag':'a'}}}"));
        EsClient.Reply count = on.client.post("/books/_count", json("{'query':{'term':{'tag':'a'}}}"));
        assertThat(count.json().path("count").asLong()).isPositive();
        String msearch = "{\"index\":\"books\"}\n{\"size\":0,\"query\":{\"term\":{\"tag\":\"a\"}}}\n";
        on.client.send("POST", "/_msearch", msearch, "application/x-ndjson");
        on.client.send("POST", "/_msearch", msearch, "application/x-ndjson");
        awaitOutcome(on, "publish", published + 2);
        EsClient.Reply slots = on.client.send("POST", "/_msearch", msearch, "application/x-ndjson");
        assertThat(slots.json().at("/responses/0/status").asInt()).isEqualTo(200);
        assertThat(outcome(on, "hit")).isEqualTo(hits + 2);
    }

    @Test
    void aRequestThatMentionsNowIsNeverCached() {
        long uncacheable = outcome(on, "uncacheable");
        long hits = outcome(on, "hit");
        String body = json("{'query':{'range':{'year':{'lte':'now'}}}}");
        on.client.post("/books/_search", body);
        on.client.post("/books/_search", body);
        assertThat(outcome(on, "uncacheable")).isEqualTo(uncacheable + 2);
        assertThat(outcome(on, "hit")).isEqualTo(hits);
    }

    @Test
    void coordinateFindsEntriesButComputesEveryAnswer() {
        String body = json("{'query':{'term':{'tag':'a'}}}");
        coordinate.client.post("/books/_search", body);
        long hits = outcome(coordinate, "hit");
        long plans = computed(coordinate);
        EsClient.Reply again = coordinate.client.post("/books/_search", body);
        assertThat(again.status()).isEqualTo(200);
        assertThat(outcome(coordinate, "hit")).isEqualTo(hits + 1);
        assertThat(computed(coordinate)).isEqualTo(plans + 1);
        assertThat(outcome(coordinate, "publish")).isPositive();
    }
}
