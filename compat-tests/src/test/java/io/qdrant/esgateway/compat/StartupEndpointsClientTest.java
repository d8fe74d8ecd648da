package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch.nodes.info.NodeInfo;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.Oracles;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.http.HttpHost;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The endpoints an application calls at start-up and in cleanup, read through the official Elasticsearch Java client
 * 8.15's typed API: {@code nodes().info()} and {@code nodes().stats()} (version, roles, the HTTP publish address a
 * sniffer connects to, document counts), {@code indices().stats()}, {@code fieldCaps()}, and {@code cat()} aliases,
 * count and health. What the client deserialised must be the same on the gateway, on both backends, as on
 * Elasticsearch 8.15; the addresses must be each server's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StartupEndpointsClientTest {
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
            new com.fasterxml.jackson.databind.ObjectMapper();

    @TempDir
    Path temp;
    private List<String> elasticsearch;
    private FakeQdrant qdrant;

    @BeforeAll
    void runOnElasticsearch() throws IOException {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "-Doracle.engines leaves out elasticsearch");
        // the node is shared with the scenario runs, which leave their last indices behind, and the flow counts the
        // node's documents: start it empty, as each gateway starts
        ScenarioRunner.deleteAllIndices(Oracles.engine(Engine.ELASTICSEARCH).target());
        elasticsearch = flow(Oracles.engine(Engine.ELASTICSEARCH).target().base());
    }

    @AfterAll
    void stopQdrant() {
        if (qdrant != null) {
            qdrant.close();
        }
    }

    @Test
    void theLuceneBackendAnswersAsElasticsearch() throws IOException {
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createDirectories(temp.resolve("lucene")))) {
            assertSame(flow("http://127.0.0.1:" + gateway.port()));
            typedNodesInfo("http://127.0.0.1:" + gateway.port());
        }
    }

    @Test
    void theQdrantBackendAnswersAsElasticsearch() throws IOException {
        qdrant = new FakeQdrant();
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createDirectories(temp.resolve("qdrant")),
                Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()))) {
            assertSame(flow("http://127.0.0.1:" + gateway.port()));
        }
        assertThat(qdrant.violations).isEmpty();
    }

    /** The typed client reads the gateway's node info whole: version, roles, attributes, the HTTP section. */
    private static void typedNodesInfo(String base) throws IOException {
        try (RestClient rest = RestClient.builder(HttpHost.create(base)).build();
             RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper())) {
            var info = new ElasticsearchClient(transport).nodes().info();
            assertThat(info.nodes()).hasSize(1);
            NodeInfo node = info.nodes().values().iterator().next();
            assertThat(node.version()).isEqualTo("8.15.0");
            assertThat(node.http().publishAddress()).endsWith(base.substring(base.lastIndexOf(':')));
            assertThat(node.roles()).isNotEmpty();
        }
    }

    private void assertSame(List<String> gateway) {
        assertThat(elasticsearch).hasSizeGreaterThan(15);
        assertThat(String.join("\n", gateway)).isEqualTo(String.join("\n", elasticsearch));
    }

    private static List<String> flow(String base) throws IOException {
        List<String> out = new ArrayList<>();
        String port = base.substring(base.lastIndexOf(':'));
        try (RestClient rest = RestClient.builder(HttpHost.create(base)).build();
             RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper())) {
            ElasticsearchClient client = new ElasticsearchClient(transport);
            for (String index : List.of("start-a", "start-b")) {
                if (client.indices().exists(e -> e.index(index)).value()) {
                    client.indices().delete(d -> d.index(index));
                }
            }
            client.indices().create(c -> c.index("start-a").settings(s -> s.numberOfReplicas("0"))
                    .mappings(m -> m.properties("title", p -> p.text(t -> t.fields("raw", f -> f.keyword(k -> k))))
                            .properties("n", p -> p.long_(l -> l)))
                    .aliases("start", a -> a));
            client.indices().create(c -> c.index("start-b").settings(s -> s.numberOfReplicas("0"))
                    .mappings(m -> m.properties("title", p -> p.keyword(k -> k))
                            .properties("tags", p -> p.keyword(k -> k.index(false).docValues(false))))
                    .aliases("start", a -> a.isWriteIndex(true)));
            for (int i = 0; i < 5; i++) {
                int n = i;
                client.index(x -> x.index(n < 3 ? "start-a" : "start-b").id("d" + n)
                        .document(Map.of("title", "t" + n, "n", n)).refresh(Refresh.True));
            }

            // read raw: the typed client 8.15 requires node attributes, which a distribution's node has and the
            // oracle's stripped node lacks (the gateway sends them: checked by typedNodesInfo)
            var raw = MAPPER.readTree(rest.performRequest(new Request("GET", "/_nodes/http,jvm,os,process"))
                    .getEntity().getContent());
            out.add("nodes info: " + raw.path("_nodes").path("total").asInt() + " " + raw.path("nodes").size());
            raw.path("nodes").forEach(node -> {
                out.add("node version: " + node.path("version").asText() + " roles " + node.path("roles")
                        + " jvm " + node.has("jvm") + " os " + node.has("os") + " process " + node.has("process"));
                out.add("node http publish address is the server's: "
                        + node.path("http").path("publish_address").asText().endsWith(port));
            });
            var stats = client.nodes().stats(s -> s.metric("indices"));
            stats.nodes().values().forEach(n -> out.add("node stats docs: " + n.indices().docs().count()
                    + " roles " + n.roles()));

            var indices = client.indices().stats(s -> s.index("start-*"));
            out.add("index stats all: " + indices.all().primaries().docs().count() + " "
                    + indices.all().total().docs().count());
            new TreeMap<>(indices.indices()).forEach((name, s) -> out.add("index stats " + name + ": "
                    + s.primaries().docs().count() + " " + s.health() + " " + s.status()));
            var docs = client.indices().stats(s -> s.index("start").metric("docs"));
            out.add("index stats through the alias: " + docs.all().primaries().docs().count() + " "
                    + docs.indices().keySet().stream().sorted().toList());

            var caps = client.fieldCaps(f -> f.index("start-*").fields("title*", "n", "tags"));
            out.add("field caps indices: " + caps.indices());
            new TreeMap<>(caps.fields()).forEach((field, types) -> new TreeMap<>(types).forEach((type, c) ->
                    out.add("field caps " + field + " " + type + ": searchable " + c.searchable() + " aggregatable "
                            + c.aggregatable() + " indices " + c.indices() + " metadata " + c.metadataField())));

            client.cat().aliases(a -> a.name("start")).valueBody().stream()
                    .sorted(java.util.Comparator.comparing(r -> r.index()))
                    .forEach(r -> out.add("cat alias: " + r.alias() + " " + r.index() + " " + r.filter() + " "
                            + r.routingIndex() + " " + r.routingSearch() + " " + r.isWriteIndex()));
            client.cat().count(c -> c.index("start")).valueBody()
                    .forEach(r -> out.add("cat count: " + r.count() + " has time " + (r.epoch() != null)));
            client.cat().health().valueBody()
                    .forEach(r -> out.add("cat health: " + r.status() + " " + r.nodeTotal() + " " + r.nodeData() + " "
                            + (r.pri() != null) + " " + r.activeShardsPercent())); // pri counts every index of the cluster

            client.indices().delete(d -> d.index("start-a,start-b"));
            out.add("after cleanup: " + client.cat().count().valueBody().getFirst().count());
        }
        return out;
    }
}
