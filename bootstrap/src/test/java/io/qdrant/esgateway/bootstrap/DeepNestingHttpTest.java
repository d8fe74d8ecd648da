package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bodies nested deep but within the parser's 1,000 levels, on both backends: a document whose objects nest deeper
 * than Elasticsearch's {@code index.mapping.depth.limit} (20) is a 400 naming the limit; no mapping body is a 5xx.
 */
class DeepNestingHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static String nested(int depth) {
        return "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aDocumentNestedNineHundredDeepIsA400(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/deep", json("{'mappings':{'properties':{'t':{'type':'keyword'}}}}"));
        EsClient.Reply doc = es.put("/deep/_doc/x1", nested(900));
        assertThat(doc.status()).as(doc.toString()).isEqualTo(400);
        assertThat(doc.toString()).contains("Limit of mapping depth [20] has been exceeded");
        // as Elasticsearch 8.15 (scenario depth-limits): 19 nested objects are within the limit, 20 are not
        assertThat(es.put("/deep/_doc/x3", nested(21)).status()).as("20 objects").isEqualTo(400);
        assertThat(es.put("/deep2/_doc/x4", nested(20)).status()).as("19 objects").isIn(200, 201);
        EsClient.Reply ok = es.put("/deep/_doc/x2", nested(5));
        assertThat(ok.status()).as(ok.toString()).isIn(200, 201);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aDeeplyNestedMappingBodyIsNeverA5xx(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/deepmap", json("{'mappings':{'properties':{'t':{'type':'keyword'}}}}"));
        String body = "{\"properties\":" + "{\"a\":{\"properties\":".repeat(450) + "{\"b\":{\"type\":\"keyword\"}}"
                + "}}".repeat(450) + "}";
        EsClient.Reply mapping = es.put("/deepmap/_mapping", body);
        assertThat(mapping.status()).as(mapping.toString()).isLessThan(500);
        EsClient.Reply fuzzed = es.put("/deepmap/_mapping", nested(900));
        assertThat(fuzzed.status()).as(fuzzed.toString()).isLessThan(500);
    }
}
