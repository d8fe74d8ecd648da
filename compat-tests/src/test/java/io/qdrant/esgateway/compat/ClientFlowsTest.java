package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._helpers.bulk.BulkIngester;
import co.elastic.clients.elasticsearch._helpers.bulk.BulkListener;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.Aggregate;
import co.elastic.clients.elasticsearch._types.aggregations.CalendarInterval;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.Oracles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.http.HttpHost;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's flow through the official Elasticsearch Java client 8.15 (typed API, Jackson mapper,
 * {@code BulkIngester}), run against Elasticsearch 8.15 and against the gateway on both backends (the embedded
 * Lucene store, and Qdrant as served by {@link FakeQdrant}): create an index with mappings, bulk, get, search, every
 * aggregation kind the gateway supports read through the client's typed results, count, update, search with versions,
 * delete, delete the index. Each step's result, as the client deserialised it, must be the same on the gateway as on
 * Elasticsearch.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientFlowsTest {
    private static final String INDEX = "products";
    private static final String[] CATEGORIES = {"tools", "garden", "kitchen", null};

    @TempDir
    Path temp;
    private List<String> elasticsearch;
    private FakeQdrant qdrant;

    /** A document as an application maps it (Jackson, through the client's mapper). */
    public record Product(String name, String category, Long stock, Double price, Float rating, Boolean active,
                          String created, String description) {
    }

    @BeforeAll
    void runOnElasticsearch() throws IOException {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "-Doracle.engines leaves out elasticsearch");
        elasticsearch = flow(Oracles.engine(Engine.ELASTICSEARCH).target().base());
    }

    @AfterAll
    void stopQdrant() {
        if (qdrant != null) {
            qdrant.close();
        }
    }

    @Test
    void theFlowOnTheLuceneBackendIsElasticsearchs() throws IOException {
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createDirectories(temp.resolve("lucene")))) {
            assertSame(flow("http://127.0.0.1:" + gateway.port()));
        }
    }

    @Test
    void theFlowOnTheQdrantBackendIsElasticsearchs() throws IOException {
        qdrant = new FakeQdrant();
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createDirectories(temp.resolve("qdrant")),
                Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()))) {
            assertSame(flow("http://127.0.0.1:" + gateway.port()));
        }
        assertThat(qdrant.violations).isEmpty();
    }

    /**
     * A scripted update, a stored script used by id, a scripted update-by-query and a {@code script_score} search
     * through the client, on both
     * backends (Elasticsearch 8.15's Maven artifacts lack Painless, so the values are Painless's own: checked by
     * {@code PainlessDifferentialTest} against OpenSearch).
     */
    @Test
    void scriptedUpdatesThroughTheClientOnBothBackends() throws IOException {
        FakeQdrant fake = new FakeQdrant();
        try (GatewayForCompat lucene = GatewayForCompat.start(Files.createDirectories(temp.resolve("script-lucene")));
             GatewayForCompat onQdrant = GatewayForCompat.start(Files.createDirectories(temp.resolve("script-qdrant")),
                     Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", fake.uri().toString()))) {
            for (GatewayForCompat gateway : List.of(lucene, onQdrant)) {
                scriptedFlow("http://127.0.0.1:" + gateway.port());
            }
        } finally {
            fake.close();
        }
        assertThat(fake.violations).isEmpty();
    }

    private static void scriptedFlow(String base) throws IOException {
        try (RestClient rest = RestClient.builder(HttpHost.create(base)).build();
             RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper())) {
            ElasticsearchClient client = new ElasticsearchClient(transport);
            client.index(i -> i.index("scripted").id("1").document(product(3))
                    .refresh(co.elastic.clients.elasticsearch._types.Refresh.True));
            var updated = client.update(u -> u.index("scripted").id("1")
                    .script(s -> s.source("ctx._source.stock += params.n; ctx._source.name = "
                            + "ctx._source.name.toUpperCase()").params("n", co.elastic.clients.json.JsonData.of(5))),
                    Product.class);
            assertThat(updated.result().jsonValue()).isEqualTo("updated");
            assertThat(updated.version()).isEqualTo(2);
            Product after = client.get(g -> g.index("scripted").id("1"), Product.class).source();
            assertThat(after.stock()).isEqualTo(product(3).stock() + 5);
            assertThat(after.name()).isEqualTo("P3");

            assertThat(client.putScript(p -> p.id("restock").script(s -> s.lang("painless")
                    .source("ctx._source.stock = params.level"))).acknowledged()).isTrue();
            var byId = client.update(u -> u.index("scripted").id("1").script(s -> s.id("restock")
                    .params("level", co.elastic.clients.json.JsonData.of(100))), Product.class);
            assertThat(byId.result().jsonValue()).isEqualTo("updated");
            assertThat(client.get(g -> g.index("scripted").id("1"), Product.class).source().stock()).isEqualTo(100);

            var upserted = client.update(u -> u.index("scripted").id("2").scriptedUpsert(true)
                    .upsert(product(4)).script(s -> s.source("ctx._source.stock = 1")), Product.class);
            assertThat(upserted.result().jsonValue()).isEqualTo("created");
            client.indices().refresh(r -> r.index("scripted"));
            var byQuery = client.updateByQuery(u -> u.index("scripted").refresh(true)
                    .script(s -> s.source("ctx._source.stock *= 2")));
            assertThat(byQuery.updated()).isEqualTo(2);
            assertThat(client.get(g -> g.index("scripted").id("2"), Product.class).source().stock()).isEqualTo(2);

            var scored = client.search(s -> s.index("scripted").query(q -> q.scriptScore(ss -> ss
                    .query(inner -> inner.matchAll(m -> m))
                    .script(sc -> sc.source("doc['stock'].value * params.f + _score")
                            .params("f", co.elastic.clients.json.JsonData.of(0.5))))), Product.class);
            assertThat(scored.hits().hits()).extracting(h -> h.id()).containsExactly("1", "2");
            assertThat(scored.hits().hits()).extracting(h -> h.score()).containsExactly(101.0, 2.0);
        }
    }

    private void assertSame(List<String> gateway) {
        // the flow reads something at every step: an empty or failed step cannot pass by comparing nothing
        assertThat(elasticsearch).hasSizeGreaterThan(40);
        assertThat(String.join("\n", gateway)).isEqualTo(String.join("\n", elasticsearch));
    }

    private static Product product(int i) {
        String category = CATEGORIES[i % CATEGORIES.length];
        return new Product("p" + i, category, i % 5 == 0 ? null : (long) (i * 7 % 23), i * 1.25 + 3,
                (float) (i % 10) / 2, i % 3 != 0, "2024-0" + (1 + i % 3) + "-1" + (i % 10) + "T10:00:00Z",
                "product number " + i + (i % 2 == 0 ? " even" : " odd"));
    }

    /** The whole flow against the server at {@code base}; what the client read at each step, in order. */
    private static List<String> flow(String base) throws IOException {
        List<String> out = new ArrayList<>();
        try (RestClient rest = RestClient.builder(HttpHost.create(base)).build();
             RestClientTransport transport = new RestClientTransport(rest, new JacksonJsonpMapper())) {
            ElasticsearchClient client = new ElasticsearchClient(transport);
            if (client.indices().exists(e -> e.index(INDEX)).value()) {
                client.indices().delete(d -> d.index(INDEX));
            }
            out.add("create: " + client.indices().create(c -> c.index(INDEX)
                    .settings(s -> s.numberOfReplicas("0"))
                    .mappings(m -> m.properties("name", p -> p.keyword(k -> k))
                            .properties("category", p -> p.keyword(k -> k))
                            .properties("stock", p -> p.long_(l -> l))
                            .properties("price", p -> p.double_(d -> d))
                            .properties("rating", p -> p.float_(f -> f))
                            .properties("active", p -> p.boolean_(b -> b))
                            .properties("created", p -> p.date(d -> d))
                            .properties("description", p -> p.text(t -> t)))).acknowledged());

            bulk(client, out);
            client.indices().refresh(r -> r.index(INDEX));

            GetResponse<Product> got = client.get(g -> g.index(INDEX).id("7"), Product.class);
            out.add("get: " + got.found() + " " + got.version() + " " + got.source());
            out.add("get missing: " + client.get(g -> g.index(INDEX).id("nope"), Product.class).found());

            SearchResponse<Product> page = client.search(s -> s.index(INDEX)
                    .query(q -> q.bool(b -> b.filter(f -> f.term(t -> t.field("category").value("tools")))
                            .filter(f -> f.range(r -> r.number(n -> n.field("price").gte(5.0))))))
                    .sort(o -> o.field(f -> f.field("price").order(SortOrder.Desc)))
                    .size(4), Product.class);
            out.add("search total: " + page.hits().total().value() + " " + page.hits().total().relation());
            for (Hit<Product> hit : page.hits().hits()) {
                out.add("search hit: " + hit.id() + " " + hit.sort().stream().map(FieldValue::_toJsonString)
                        .toList() + " " + hit.source());
            }
            SearchResponse<Product> text = client.search(s -> s.index(INDEX)
                    .query(q -> q.match(m -> m.field("description").query("even"))).size(3)
                    .sort(o -> o.field(f -> f.field("stock").order(SortOrder.Asc)))
                    .sort(o -> o.field(f -> f.field("name"))), Product.class);
            out.add("match total: " + text.hits().total().value());
            text.hits().hits().forEach(h -> out.add("match hit: " + h.id()));

            aggregations(client, out);
            functionScore(client, out);

            out.add("count: " + client.count(c -> c.index(INDEX)).count());
            out.add("count tools: " + client.count(c -> c.index(INDEX)
                    .query(q -> q.term(t -> t.field("category").value("tools")))).count());

            var updated = client.update(u -> u.index(INDEX).id("7").doc(Map.of("stock", 99)).refresh(
                    co.elastic.clients.elasticsearch._types.Refresh.True), Product.class);
            out.add("update: " + updated.result() + " " + updated.version() + " " + updated.seqNo());
            SearchResponse<Product> versions = client.search(s -> s.index(INDEX).version(true)
                    .seqNoPrimaryTerm(true).query(q -> q.ids(i -> i.values("7", "8")))
                    .sort(o -> o.field(f -> f.field("name"))), Product.class);
            versions.hits().hits().forEach(h -> out.add("versioned hit: " + h.id() + " v" + h.version()
                    + " seq " + h.seqNo() + " term " + h.primaryTerm() + " " + h.source()));

            out.add("delete: " + client.delete(d -> d.index(INDEX).id("7")
                    .refresh(co.elastic.clients.elasticsearch._types.Refresh.True)).result());
            out.add("count after delete: " + client.count(c -> c.index(INDEX)).count());
            out.add("delete index: " + client.indices().delete(d -> d.index(INDEX)).acknowledged());
            out.add("exists after delete: " + client.indices().exists(e -> e.index(INDEX)).value());
        }
        return out;
    }

    /**
     * A typed {@code function_score} through the client: a filtered bare weight, {@code field_value_factor} with a
     * modifier and {@code missing}, a numeric {@code gauss} decay with a weight, a filtered date {@code linear} decay,
     * {@code score_mode sum}, {@code boost_mode multiply}, {@code max_boost}; each hit's score as the client read it
     * (ties ordered by name).
     */
    private static void functionScore(ElasticsearchClient client, List<String> out) throws IOException {
        SearchResponse<Product> boosted = client.search(s -> s.index(INDEX)
                .query(q -> q.functionScore(fs -> fs
                        .query(inner -> inner.match(m -> m.field("description").query("product even")))
                        .functions(f -> f.filter(ff -> ff.term(t -> t.field("category").value("tools"))).weight(3.0))
                        .functions(f -> f.fieldValueFactor(v -> v.field("rating").factor(1.5)
                                .modifier(co.elastic.clients.elasticsearch._types.query_dsl.FieldValueFactorModifier
                                        .Log1p).missing(1.0)))
                        .functions(f -> f.gauss(d -> d.numeric(n -> n.field("price")
                                .placement(p -> p.origin(10.0).scale(5.0).offset(1.0).decay(0.5)))).weight(2.0))
                        .functions(f -> f.linear(d -> d.date(n -> n.field("created")
                                .placement(p -> p.origin("2024-02-15T00:00:00Z")
                                        .scale(co.elastic.clients.elasticsearch._types.Time.of(t -> t.time("20d")))
                                        .decay(0.3))))
                                .filter(ff -> ff.range(r -> r.number(n -> n.field("stock").gte(10.0)))))
                        .scoreMode(co.elastic.clients.elasticsearch._types.query_dsl.FunctionScoreMode.Sum)
                        .boostMode(co.elastic.clients.elasticsearch._types.query_dsl.FunctionBoostMode.Multiply)
                        .maxBoost(20.0)))
                .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                .sort(o -> o.field(f -> f.field("name")))
                .size(8), Product.class);
        out.add("function_score total: " + boosted.hits().total().value());
        boosted.hits().hits().forEach(h -> out.add("function_score hit: " + h.id() + " " + h.score()));
    }

    private static void bulk(ElasticsearchClient client, List<String> out) {
        List<String> failures = new ArrayList<>();
        long[] items = {0};
        BulkListener<Void> listener = new BulkListener<>() {
            @Override
            public void beforeBulk(long executionId, BulkRequest request, List<Void> contexts) {
            }

            @Override
            public void afterBulk(long executionId, BulkRequest request, List<Void> contexts,
                                  BulkResponse response) {
                synchronized (failures) {
                    items[0] += response.items().size();
                    response.items().stream().filter(i -> i.error() != null)
                            .forEach(i -> failures.add(i.id() + ": " + i.error().type()));
                }
            }

            @Override
            public void afterBulk(long executionId, BulkRequest request, List<Void> contexts, Throwable failure) {
                synchronized (failures) {
                    failures.add(failure.toString());
                }
            }
        };
        try (BulkIngester<Void> ingester = BulkIngester.of(b -> b.client(client).maxOperations(10)
                .flushInterval(1, TimeUnit.SECONDS).listener(listener))) {
            for (int i = 1; i <= 40; i++) {
                Product p = product(i);
                String id = Integer.toString(i);
                ingester.add(op -> op.index(x -> x.index(INDEX).id(id).document(p)));
            }
        }
        synchronized (failures) {
            out.add("bulk: " + items[0] + " items, failures " + failures);
        }
    }

    private static void aggregations(ElasticsearchClient client, List<String> out) throws IOException {
        SearchResponse<Void> r = client.search(s -> s.index(INDEX).size(0)
                .aggregations("by_cat", a -> a.terms(t -> t.field("category"))
                        .aggregations("avg_price", x -> x.avg(v -> v.field("price")))
                        .aggregations("by_active", x -> x.terms(t -> t.field("active"))))
                .aggregations("by_stock", a -> a.terms(t -> t.field("stock").size(3)))
                .aggregations("by_price", a -> a.terms(t -> t.field("price").size(2)))
                .aggregations("by_rating", a -> a.terms(t -> t.field("rating").size(2)))
                .aggregations("by_day", a -> a.terms(t -> t.field("created").size(2)))
                .aggregations("by_nothing", a -> a.terms(t -> t.field("unmapped_field")))
                .aggregations("avg", a -> a.avg(v -> v.field("price")))
                .aggregations("sum", a -> a.sum(v -> v.field("stock")))
                .aggregations("min", a -> a.min(v -> v.field("created")))
                .aggregations("max", a -> a.max(v -> v.field("rating")))
                .aggregations("count", a -> a.valueCount(v -> v.field("category")))
                .aggregations("distinct", a -> a.cardinality(v -> v.field("category")))
                .aggregations("stats", a -> a.stats(v -> v.field("price")))
                .aggregations("xstats", a -> a.extendedStats(v -> v.field("stock")))
                .aggregations("pct", a -> a.percentiles(v -> v.field("price").percents(25.0, 50.0, 99.0)))
                .aggregations("hist", a -> a.histogram(h -> h.field("price").interval(20.0))
                        .aggregations("top", x -> x.topHits(t -> t.size(1).sort(o -> o.field(f -> f.field("name"))))))
                .aggregations("months", a -> a.dateHistogram(h -> h.field("created")
                        .calendarInterval(CalendarInterval.Month)).aggregations("s", x -> x.sum(v -> v.field("price"))))
                .aggregations("ranges", a -> a.range(g -> g.field("price").ranges(x -> x.to(20.0))
                        .ranges(x -> x.from(20.0).to(40.0)).ranges(x -> x.from(40.0))))
                .aggregations("dates", a -> a.dateRange(g -> g.field("created")
                        .ranges(x -> x.to(t -> t.expr("2024-02-01"))).ranges(x -> x.from(t -> t.expr("2024-02-01")))))
                .aggregations("cheap", a -> a.filter(f -> f.range(g -> g.number(n -> n.field("price").lt(15.0))))
                        .aggregations("n", x -> x.valueCount(v -> v.field("name"))))
                .aggregations("groups", a -> a.filters(f -> f.filters(k -> k.keyed(Map.of(
                        "tools", q(t -> t.term(x -> x.field("category").value("tools"))),
                        "active", q(t -> t.term(x -> x.field("active").value(true))))))))
                .aggregations("pairs", a -> a.composite(c -> c.size(5).sources(
                        Map.of("cat", src(x -> x.terms(t -> t.field("category").missingBucket(true)))))))
                .aggregations("no_category", a -> a.missing(m -> m.field("category")))
                .aggregations("all", a -> a.global(g -> g).aggregations("m", x -> x.max(v -> v.field("price")))),
                Void.class);
        Map<String, Aggregate> aggs = new TreeMap<>(r.aggregations());
        for (var e : aggs.entrySet()) {
            out.add("agg " + e.getKey() + " (" + e.getValue()._kind() + "): " + describe(e.getValue()));
        }
    }

    private static co.elastic.clients.elasticsearch._types.query_dsl.Query q(
            java.util.function.Function<co.elastic.clients.elasticsearch._types.query_dsl.Query.Builder,
                    co.elastic.clients.util.ObjectBuilder<co.elastic.clients.elasticsearch._types.query_dsl.Query>> f) {
        return f.apply(new co.elastic.clients.elasticsearch._types.query_dsl.Query.Builder()).build();
    }

    private static co.elastic.clients.elasticsearch._types.aggregations.CompositeAggregationSource src(
            java.util.function.Function<co.elastic.clients.elasticsearch._types.aggregations.CompositeAggregationSource.Builder,
                    co.elastic.clients.util.ObjectBuilder<
                            co.elastic.clients.elasticsearch._types.aggregations.CompositeAggregationSource>> f) {
        return f.apply(new co.elastic.clients.elasticsearch._types.aggregations.CompositeAggregationSource.Builder())
                .build();
    }

    /** What an application reads of a typed aggregation result. */
    private static String describe(Aggregate a) {
        return switch (a._kind()) {
            case Sterms -> a.sterms().buckets().array().stream().map(b -> b.key().stringValue() + "=" + b.docCount()
                    + subs(b.aggregations())).toList() + " other " + a.sterms().sumOtherDocCount();
            case Lterms -> a.lterms().buckets().array().stream().map(b -> b.key() + "/" + b.keyAsString() + "="
                    + b.docCount() + subs(b.aggregations())).toList() + " other " + a.lterms().sumOtherDocCount();
            case Dterms -> a.dterms().buckets().array().stream().map(b -> b.key() + "=" + b.docCount()).toList()
                    + " other " + a.dterms().sumOtherDocCount();
            case Umterms -> "unmapped " + a.umterms().buckets().array().size();
            case Avg -> a.avg().value() + "";
            case Sum -> a.sum().value() + "";
            case Min -> a.min().value() + " " + a.min().valueAsString();
            case Max -> a.max().value() + "";
            case ValueCount -> a.valueCount().value() + "";
            case Cardinality -> a.cardinality().value() + "";
            case Stats -> a.stats().count() + " " + a.stats().min() + " " + a.stats().max() + " " + a.stats().avg()
                    + " " + a.stats().sum();
            case ExtendedStats -> a.extendedStats().count() + " " + a.extendedStats().sumOfSquares() + " "
                    + a.extendedStats().variance() + " " + a.extendedStats().stdDeviation() + " "
                    + a.extendedStats().stdDeviationBounds().upper();
            case TdigestPercentiles -> a.tdigestPercentiles().values().isKeyed()
                    ? new TreeMap<>(a.tdigestPercentiles().values().keyed()).toString()
                    : a.tdigestPercentiles().values().array().toString();
            case Histogram -> a.histogram().buckets().array().stream().map(b -> b.key() + "=" + b.docCount()
                    + subs(b.aggregations())).toList().toString();
            case DateHistogram -> a.dateHistogram().buckets().array().stream().map(b -> b.keyAsString() + "/"
                    + b.key() + "=" + b.docCount() + subs(b.aggregations())).toList().toString();
            case Range -> a.range().buckets().array().stream().map(b -> b.key() + " " + b.from() + ".." + b.to()
                    + "=" + b.docCount()).toList().toString();
            case DateRange -> a.dateRange().buckets().array().stream().map(b -> b.key() + " " + b.fromAsString()
                    + ".." + b.toAsString() + "=" + b.docCount()).toList().toString();
            case Filter -> a.filter().docCount() + subs(a.filter().aggregations());
            case Filters -> new TreeMap<>(a.filters().buckets().keyed()).entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue().docCount()).toList().toString();
            case Composite -> a.composite().buckets().array().stream().map(b -> new TreeMap<>(b.key()).entrySet()
                    .stream().map(e -> e.getKey() + ":" + e.getValue()._toJsonString()).toList() + "="
                    + b.docCount()).toList() + " after " + (a.composite().afterKey() == null ? null
                    : new TreeMap<>(a.composite().afterKey()).keySet());
            case TopHits -> a.topHits().hits().hits().stream().map(h -> h.id() + " "
                    + h.source().to(Product.class)).toList().toString();
            case Missing -> a.missing().docCount() + "";
            case Global -> a.global().docCount() + subs(a.global().aggregations());
            default -> "unexpected kind " + a._kind();
        };
    }

    private static String subs(Map<String, Aggregate> subs) {
        if (subs.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(" {");
        new TreeMap<>(subs).forEach((name, a) -> out.append(name).append(" (").append(a._kind()).append("): ")
                .append(describe(a)).append("; "));
        return out.append('}').toString();
    }
}
