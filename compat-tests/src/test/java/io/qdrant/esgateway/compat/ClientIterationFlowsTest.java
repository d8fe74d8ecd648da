package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Conflicts;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.OpType;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.ClearScrollResponse;
import co.elastic.clients.elasticsearch.core.ClosePointInTimeResponse;
import co.elastic.clients.elasticsearch.core.ReindexResponse;
import co.elastic.clients.elasticsearch.core.ScrollResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.elasticsearch.tasks.GetTasksResponse;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.Oracles;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.http.HttpHost;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Elasticsearch Java client 8.15's calls that walk or copy whole indices, on the gateway's two backends
 * (the embedded Lucene store, and Qdrant as served by {@link FakeQdrant}): a scroll walked with {@code scroll} and
 * cleared with {@code clearScroll}, a point in time paged with {@code searchAfter} and closed (both the same as on
 * Elasticsearch 8.15), and {@code reindex}, {@code deleteByQuery} and
 * {@code updateByQuery} run as tasks and polled through {@code tasks().get} (the same on both backends, with the
 * counts they must have: Elasticsearch 8.15's Maven artifacts lack the reindex module).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientIterationFlowsTest {
    private static final int DOCUMENTS = 11;

    @TempDir
    Path temp;
    private final List<FakeQdrant> fakes = new ArrayList<>();

    /** A document as an application maps it. */
    public record Item(String name, Long n, String tag) {
    }

    @AfterAll
    void stopQdrant() {
        fakes.forEach(FakeQdrant::close);
    }

    private interface Flow {
        List<String> run(ElasticsearchClient client) throws IOException;
    }

    private static List<String> on(String base, Flow flow) throws IOException {
        try (RestClient rest = RestClient.builder(HttpHost.create(base)).build();
             RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper())) {
            return flow.run(new ElasticsearchClient(transport));
        }
    }

    private List<String> onLucene(Flow flow) throws IOException {
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createTempDirectory(temp, "lucene"))) {
            return on("http://127.0.0.1:" + gateway.port(), flow);
        }
    }

    private List<String> onQdrant(Flow flow) throws IOException {
        FakeQdrant qdrant = new FakeQdrant();
        fakes.add(qdrant);
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createTempDirectory(temp, "qdrant"),
                Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()))) {
            return on("http://127.0.0.1:" + gateway.port(), flow);
        } finally {
            assertThat(qdrant.violations).isEmpty();
        }
    }

    private static void items(ElasticsearchClient client, String index) throws IOException {
        if (client.indices().exists(e -> e.index(index)).value()) {
            client.indices().delete(d -> d.index(index));
        }
        client.indices().create(c -> c.index(index).settings(s -> s.numberOfReplicas("0"))
                .mappings(m -> m.properties("name", p -> p.keyword(k -> k)).properties("n", p -> p.long_(l -> l))
                        .properties("tag", p -> p.keyword(k -> k))));
        BulkRequest.Builder bulk = new BulkRequest.Builder().refresh(Refresh.True);
        for (int i = 1; i <= DOCUMENTS; i++) {
            Item item = new Item("item" + i, (long) (i * 7 % DOCUMENTS), i % 3 == 0 ? "old" : "new");
            String id = "i" + i;
            bulk.operations(o -> o.index(x -> x.index(index).id(id).document(item)));
        }
        assertThat(client.bulk(bulk.build()).errors()).isFalse();
    }

    /** Opens a point in time, pages through it with search_after, closes it, and searches the closed one. */
    private static List<String> pointInTime(ElasticsearchClient client) throws IOException {
        List<String> out = new ArrayList<>();
        items(client, "walked");
        String pit = client.openPointInTime(o -> o.index("walked").keepAlive(k -> k.time("1m"))).id();
        List<FieldValue> after = List.of();
        for (int page = 0; page < 10; page++) {
            List<FieldValue> from = after;
            SearchResponse<Item> response = client.search(s -> {
                s.pit(p -> p.id(pit).keepAlive(k -> k.time("1m"))).size(3)
                        .sort(o -> o.field(f -> f.field("n").order(SortOrder.Desc)));
                if (!from.isEmpty()) {
                    s.searchAfter(from);
                }
                return s;
            }, Item.class);
            out.add("page " + page + ": total " + response.hits().total().value() + ", pit id "
                    + (response.pitId() != null));
            if (response.hits().hits().isEmpty()) {
                break;
            }
            for (Hit<Item> hit : response.hits().hits()) {
                // the tiebreaker is each engine's own document position: its presence is compared, not its value
                out.add(hit.id() + " " + hit.source() + " sort " + hit.sort().get(0).longValue() + " + "
                        + (hit.sort().size() - 1));
            }
            after = response.hits().hits().get(response.hits().hits().size() - 1).sort();
        }
        ClosePointInTimeResponse closed = client.closePointInTime(c -> c.id(pit));
        out.add("closed: " + closed.succeeded() + " " + closed.numFreed());
        try {
            client.search(s -> s.pit(p -> p.id(pit)), Item.class);
            out.add("closed point in time answered");
        } catch (ElasticsearchException e) {
            out.add("closed point in time: " + e.status() + " " + e.error().type() + " "
                    + e.error().rootCause().get(0).type());
        }
        return out;
    }

    @Test
    void aPointInTimeOnBothBackendsIsElasticsearchs() throws IOException {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "-Doracle.engines leaves out elasticsearch");
        List<String> elasticsearch = on(Oracles.engine(Engine.ELASTICSEARCH).target().base(),
                ClientIterationFlowsTest::pointInTime);
        assertThat(elasticsearch).hasSizeGreaterThan(DOCUMENTS + 4);
        assertThat(String.join("\n", onLucene(ClientIterationFlowsTest::pointInTime)))
                .isEqualTo(String.join("\n", elasticsearch));
        assertThat(String.join("\n", onQdrant(ClientIterationFlowsTest::pointInTime)))
                .isEqualTo(String.join("\n", elasticsearch));
    }

    /** Opens a sorted scroll with an aggregation, walks it page by page, clears it, and asks for the cleared one. */
    private static List<String> scroll(ElasticsearchClient client) throws IOException {
        List<String> out = new ArrayList<>();
        items(client, "scrolled");
        SearchResponse<Item> first = client.search(s -> s.index("scrolled").scroll(t -> t.time("1m")).size(4)
                .sort(o -> o.field(f -> f.field("n").order(SortOrder.Desc)))
                .aggregations("tags", a -> a.terms(t -> t.field("tag"))), Item.class);
        String id = first.scrollId();
        out.add("first page: total " + first.hits().total().value() + ", aggregations "
                + first.aggregations().keySet() + ", buckets "
                + first.aggregations().get("tags").sterms().buckets().array().size());
        first.hits().hits().forEach(h -> out.add(h.id() + " " + h.source() + " sort " + h.sort().get(0).longValue()));
        for (int page = 1; page < 10; page++) {
            String current = id;
            ScrollResponse<Item> next = client.scroll(s -> s.scrollId(current).scroll(t -> t.time("1m")), Item.class);
            out.add("page " + page + ": total " + next.hits().total().value() + ", aggregations "
                    + next.aggregations().size() + ", hits " + next.hits().hits().size());
            next.hits().hits().forEach(h -> out.add(h.id() + " " + h.source() + " sort "
                    + h.sort().get(0).longValue()));
            id = next.scrollId();
            if (next.hits().hits().isEmpty()) {
                break;
            }
        }
        String last = id;
        ClearScrollResponse cleared = client.clearScroll(c -> c.scrollId(last));
        out.add("cleared: " + cleared.succeeded() + " " + cleared.numFreed());
        try {
            client.scroll(s -> s.scrollId(last).scroll(t -> t.time("1m")), Item.class);
            out.add("cleared scroll answered");
        } catch (ElasticsearchException e) {
            out.add("cleared scroll: " + e.status() + " " + e.error().type() + " "
                    + e.error().rootCause().get(0).type());
        }
        return out;
    }

    @Test
    void aScrollOnBothBackendsIsElasticsearchs() throws IOException {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "-Doracle.engines leaves out elasticsearch");
        List<String> elasticsearch = on(Oracles.engine(Engine.ELASTICSEARCH).target().base(),
                ClientIterationFlowsTest::scroll);
        assertThat(elasticsearch).hasSizeGreaterThan(DOCUMENTS + 4).contains("cleared: true 1");
        assertThat(String.join("\n", onLucene(ClientIterationFlowsTest::scroll)))
                .isEqualTo(String.join("\n", elasticsearch));
        assertThat(String.join("\n", onQdrant(ClientIterationFlowsTest::scroll)))
                .isEqualTo(String.join("\n", elasticsearch));
    }

    private static long counter(JsonObject response, String name) {
        return response.getJsonNumber(name).longValue();
    }

    /** Polls the task as an application does: until it says it completed. */
    private static GetTasksResponse poll(ElasticsearchClient client, String task) throws IOException {
        for (int i = 0; i < 2000; i++) {
            GetTasksResponse got = client.tasks().get(g -> g.taskId(task));
            if (got.completed()) {
                return got;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        throw new AssertionError("task " + task + " did not complete");
    }

    /** Reindexes, then deletes and updates by query as tasks; what the client read at each step. */
    private static List<String> reindexAndTasks(ElasticsearchClient client) throws IOException {
        List<String> out = new ArrayList<>();
        items(client, "origin");
        ReindexResponse copied = client.reindex(r -> r.source(s -> s.index("origin")
                        .query(q -> q.range(g -> g.number(n -> n.field("n").gte(3.0)))).size(4))
                .dest(d -> d.index("copy")).refresh(true));
        out.add("reindex: total " + copied.total() + ", created " + copied.created() + ", updated "
                + copied.updated() + ", batches " + copied.batches() + ", failures " + copied.failures().size());
        ReindexResponse again = client.reindex(r -> r.source(s -> s.index("origin")).conflicts(Conflicts.Proceed)
                .dest(d -> d.index("copy").opType(OpType.Create)).refresh(true));
        out.add("reindex create: total " + again.total() + ", created " + again.created() + ", conflicts "
                + again.versionConflicts());
        out.add("copy count: " + client.count(c -> c.index("copy")).count());

        String deleting = client.deleteByQuery(d -> d.index("copy").query(q -> q.term(t -> t.field("tag")
                .value("old"))).waitForCompletion(false)).task();
        GetTasksResponse deleted = poll(client, deleting);
        out.add("delete task: " + deleted.task().action() + ", deleted "
                + counter(deleted.response().toJson().asJsonObject(), "deleted") + ", error " + deleted.error());
        client.indices().refresh(r -> r.index("copy"));
        out.add("copy count after delete: " + client.count(c -> c.index("copy")).count());

        String updating = client.updateByQuery(u -> u.index("copy").waitForCompletion(false)).task();
        GetTasksResponse updated = client.tasks().get(g -> g.taskId(updating).waitForCompletion(true));
        out.add("update task: completed " + updated.completed() + ", updated "
                + counter(updated.response().toJson().asJsonObject(), "updated"));
        out.add("version after update: " + client.get(g -> g.index("copy").id("i1"), Item.class).version());
        return out;
    }

    @Test
    void reindexAndTasksThroughTheClientOnBothBackends() throws IOException {
        List<String> lucene = onLucene(ClientIterationFlowsTest::reindexAndTasks);
        // 11 items, n = i * 7 % 11 takes every value 0..10 once: 8 have n >= 3, among them the three tagged old
        // (i = 3, 6, 9: n = 10, 9, 8)
        assertThat(lucene).containsExactly(
                "reindex: total 8, created 8, updated 0, batches 2, failures 0",
                "reindex create: total 11, created 3, conflicts 8",
                "copy count: 11",
                "delete task: indices:data/write/delete/byquery, deleted 3, error null",
                "copy count after delete: 8",
                "update task: completed true, updated 8",
                "version after update: 2");
        assertThat(onQdrant(ClientIterationFlowsTest::reindexAndTasks)).isEqualTo(lucene);
    }
}
