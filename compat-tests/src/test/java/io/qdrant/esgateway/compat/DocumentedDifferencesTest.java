package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.KnownDifferences;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every known difference is written down where people read it: the gateway's differences from Elasticsearch in
 * docs/compatibility.md, OpenSearch's from Elasticsearch in docs/testing.md (each by its id, in backticks).
 */
class DocumentedDifferencesTest {
    private static String doc(String name) throws IOException {
        return Files.readString(Path.of(System.getProperty("compat.docs", "../docs"), name));
    }

    @Test
    void gateway_differences_from_elasticsearch_are_in_the_compatibility_page() throws IOException {
        String page = doc("compatibility.md");
        assertThat(page).contains("## Differences found by the oracle");
        KnownDifferences.load().all().stream().filter(e -> e.engines().contains(Engine.ELASTICSEARCH))
                .forEach(e -> assertThat(page).as("docs/compatibility.md names %s", e.id()).contains("`" + e.id() + "`"));
    }

    @Test
    void opensearch_differences_are_in_the_testing_page() throws IOException {
        String page = doc("testing.md");
        KnownDifferences.load().all().stream().filter(e -> !e.engines().contains(Engine.ELASTICSEARCH))
                .forEach(e -> assertThat(page).as("docs/testing.md names %s", e.id()).contains("`" + e.id() + "`"));
    }
}
