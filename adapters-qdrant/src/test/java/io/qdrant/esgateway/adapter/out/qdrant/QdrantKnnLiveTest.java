package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantKnnVersusLuceneTest.Backend;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * {@link QdrantKnnVersusLuceneTest}'s kNN and hybrid searches against a real Qdrant — left out of the build (JUnit
 * tag {@code live}), run on demand like {@link QdrantLiveContractTest} against the server {@code QEG_QDRANT_URL}
 * names (without it every test fails, it never skips):
 * <pre>QEG_QDRANT_URL=http://127.0.0.1:6333 mvn -B verify -pl adapters-qdrant -am -DskipITs -Dqdrant.live.skip=none \
 *     -Dtest='QdrantKnnLive*' -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * Same totals, ids, order, sources, sort values and aggregations as the Lucene backend, scores within
 * {@link QdrantKnnVersusLuceneTest#ULPS} ulps: this is where the real engine's float arithmetic (SIMD) is checked.
 * Its collections live under a random prefix and are deleted afterwards.
 */
@Tag("live")
class QdrantKnnLiveTest {
    @TempDir
    static Path temp;
    private static QdrantClient http;
    private static String prefix;
    private static Backend lucene;
    private static Backend qdrant;

    @BeforeAll
    static void setUp() {
        QdrantStores.Settings settings = LiveQdrant.settings();
        prefix = settings.collectionPrefix();
        http = new QdrantClient(settings);
        lucene = QdrantKnnVersusLuceneTest.backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = QdrantKnnVersusLuceneTest.backend(new QdrantDocumentStore(new QdrantClient(settings)));
    }

    @AfterAll
    static void tearDown() throws Exception {
        try {
            LiveQdrant.dropCollections(http, prefix);
        } finally {
            ((AutoCloseable) lucene.store()).close();
            ((AutoCloseable) qdrant.store()).close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyKnnSearchAnswersAsOnLucene() {
        return QdrantKnnVersusLuceneTest.SEARCHES.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            SearchResult expected = QdrantKnnVersusLuceneTest.search(lucene, body);
            SearchResult actual = QdrantKnnVersusLuceneTest.search(qdrant, body);
            assertThat(actual.total()).as("total").isEqualTo(expected.total());
            assertThat(QdrantKnnVersusLuceneTest.render(actual.hits())).as("hits")
                    .isEqualTo(QdrantKnnVersusLuceneTest.render(expected.hits()));
            QdrantKnnVersusLuceneTest.assertScores(actual.hits(), expected.hits(), body);
            QdrantKnnVersusLuceneTest.assertClose(actual.maxScore(), expected.maxScore(), "max_score", body);
            assertThat(QdrantKnnVersusLuceneTest.aggregations(actual)).as("aggregations")
                    .isEqualTo(QdrantKnnVersusLuceneTest.aggregations(expected));
        }));
    }
}
