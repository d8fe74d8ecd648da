package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A collection without the payload indexes of the layout (as an older gateway created it: no {@code _routing},
 * {@code _ignored} or {@code _seq_no} index, here none but {@code _id}) answers searches that need them on the first
 * use by a gateway process: the missing indexes are created once, from the collection's payload schema, and nothing
 * more is asked of Qdrant afterwards. The fake refuses {@code facet} and {@code order_by} without an index as Qdrant
 * does, so without the step these searches fail.
 */
class QdrantLayoutIndexesTest {
    private static final String MAPPING = """
            {"mappings": {"properties": {"tag": {"type": "keyword"}, "title": {"type": "text"},
              "n": {"type": "integer"}}}}""";
    private static final List<String> SEARCHES = List.of(
            "{\"query\": {\"term\": {\"tag\": \"red\"}}, \"size\": 50}",
            "{\"query\": {\"match\": {\"title\": \"quick fox\"}}, \"size\": 50}",
            "{\"sort\": [\"_doc\"], \"size\": 50}",
            "{\"size\": 0, \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\"}}}}");

    private FakeQdrant fake;
    private DocumentStore first;
    private DocumentStore second;
    private StoreServices services;
    private String collection;

    @BeforeEach
    void open() {
        fake = new FakeQdrant();
        first = store();
        services = StoreServices.over(first);
        services.admin().create(CreateIndexRequest.parse("shop", Json.parse(MAPPING)));
        List<WriteCommand> bulk = new ArrayList<>();
        String[] tags = {"red", "blue", "red", "green"};
        String[] titles = {"the quick brown fox", "a lazy dog", "quick quick fox", "fox"};
        for (int i = 0; i < 14; i++) {
            int k = (i * 5) % 14; // written in an order that is neither the ids' nor their point ids'
            JsonObject source = (JsonObject) Json.parse("{\"tag\": \"" + tags[k % 4] + "\", \"title\": \""
                    + titles[(k / 2) % 4] + "\", \"n\": " + k + "}");
            bulk.add(new WriteCommand.Index("shop", Optional.of("d" + k), source, false, Versioning.Condition.NONE,
                    false));
        }
        services.documents().bulk(bulk);
        collection = QdrantLayout.collection(index());
    }

    private DocumentStore store() {
        return QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10)), LuceneStores.relevanceScorer());
    }

    private IndexMetadata index() {
        return services.catalog().view().resolve("shop", CatalogView.Options.STRICT_EXPAND_OPEN).get(0);
    }

    @AfterEach
    void close() throws Exception {
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            ((AutoCloseable) first).close();
            if (second != null) {
                ((AutoCloseable) second).close();
            }
            fake.close();
        }
    }

    private static SearchResult search(DocumentStore store, StoreServices services, String body) {
        return new SearchService(services.catalog(), store).search("shop",
                SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    private Map<String, SearchResult> answers(DocumentStore store) {
        Map<String, SearchResult> out = new LinkedHashMap<>();
        for (String body : SEARCHES) {
            out.put(body, search(store, services, body));
        }
        return out;
    }

    private int calls(String method, String suffix) {
        return fake.requests(method, "/collections/" + collection + suffix).size();
    }

    private int scrollsInIndexOrder() {
        return (int) fake.requests("POST", "/collections/" + collection + "/points/scroll").stream()
                .filter(r -> r.body().has("order_by")).count();
    }

    @Test
    void aCollectionWithoutTheLayoutsIndexesGetsThemOnItsFirstUse() throws Exception {
        Set<String> layout = fake.payloadIndexKeys(collection);
        assertThat(layout).contains("_id", "_seq_no", "_f._routing", "_f._ignored", "_f.tag");
        Map<String, SearchResult> expected = answers(first);
        assertThat(expected.get(SEARCHES.get(0)).hits()).extracting(Hit::id).hasSize(7);
        assertThat(expected.get(SEARCHES.get(2)).hits()).extracting(Hit::id).hasSize(14);

        fake.dropPayloadIndexes(collection, key -> !key.equals(QdrantLayout.ID));
        assertThat(qdrant("POST", "/facet", "{\"key\": \"_f.tag\", \"exact\": true}").path("status").path("error")
                .asText()).startsWith("Wrong input: No appropriate index for faceting: `_f.tag`");
        assertThat(qdrant("POST", "/points/scroll", "{\"order_by\": \"_seq_no\"}").path("status").path("error")
                .asText()).startsWith("Wrong input: No range index for `order_by` key: `_seq_no`");

        // another gateway process starts: it has not seen the collection yet
        second = store();
        int gets = calls("GET", "");
        int scrolls = scrollsInIndexOrder();
        Map<String, SearchResult> answered = answers(second);
        assertThat(answered).isEqualTo(expected);
        assertThat(scrollsInIndexOrder()).as("the _doc sort scrolled in index order").isGreaterThan(scrolls);
        assertThat(fake.payloadIndexKeys(collection)).isEqualTo(layout);
        assertThat(calls("GET", "") - gets).as("the payload schema read once").isEqualTo(1);

        // the steady state: no call beyond the searches' own
        int getsAfter = calls("GET", "");
        int creates = calls("PUT", "/index");
        assertThat(answers(second)).isEqualTo(expected);
        assertThat(calls("GET", "")).isEqualTo(getsAfter);
        assertThat(calls("PUT", "/index")).isEqualTo(creates);
    }

    @Test
    void anIndexFoundMissingLaterIsCreatedAndTheReadAskedAgain() {
        second = store();
        Map<String, SearchResult> expected = answers(second); // checked: the collection has its layout
        int gets = calls("GET", "");

        fake.dropPayloadIndexes(collection, key -> key.equals(QdrantLayout.SEQ_NO) || key.equals("_f.tag"));
        assertThat(answers(second)).isEqualTo(expected);
        assertThat(fake.payloadIndexKeys(collection)).contains(QdrantLayout.SEQ_NO, "_f.tag");
        assertThat(calls("GET", "") - gets).as("the schema read again after each refusal").isBetween(1, 4);
    }

    @Test
    void aMappingUpdateOnOneProcessIsIndexedForTheOther() {
        second = store();
        answers(second);
        services.documents().bulk(List.of(new WriteCommand.Index("shop", Optional.of("new"),
                (JsonObject) Json.parse("{\"colour\": \"teal\", \"tag\": \"red\"}"), false,
                Versioning.Condition.NONE, false)));
        assertThat(fake.payloadIndexKeys(collection)).contains("_f.colour");
        SearchResult r = search(second, services, "{\"size\": 0, \"aggs\": {\"c\": {\"terms\": {\"field\":"
                + " \"colour.keyword\"}}}}");
        assertThat(String.valueOf(r.aggregations())).contains("teal");
    }

    /** A raw call to the fake's collection: the error answer's envelope, or the result's. */
    private JsonNode qdrant(String method, String rest, String body) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(fake.uri()
                            + "/collections/" + collection + rest)).method(method,
                            HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json")
                    .build(), HttpResponse.BodyHandlers.ofString());
            return FakeQdrant.MAPPER.readTree(response.body());
        }
    }
}
