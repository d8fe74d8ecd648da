package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantVersusLuceneTest.Backend;
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
 * The differential search suite against a real Qdrant: {@link QdrantVersusLuceneTest}'s filter, sort, aggregation
 * and scored full-text searches, each answered by the Lucene backend and by the Qdrant backend on a live server
 * (native paths) and on the same server with native ordering and aggregation switched off (complete scan) — same
 * totals, hits (ids, order, scores, sort values, sources), max_score and aggregations. Left out of the build (JUnit
 * tag {@code live}), run on demand against the server {@code QEG_QDRANT_URL} names (with {@code QEG_QDRANT_API_KEY}
 * when it needs one); without the URL every test fails, it never skips:
 * <pre>QEG_QDRANT_URL=http://127.0.0.1:6333 mvn -B verify -pl adapters-qdrant -am -DskipITs -Dqdrant.live.skip=none \
 *     -Dtest='Qdrant*Live*' -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * Its collections live under a random prefix ({@code qegtest-<random>-}) and are deleted afterwards.
 */
@Tag("live")
class QdrantLiveVersusLuceneTest {
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
        lucene = QdrantVersusLuceneTest.backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = QdrantVersusLuceneTest.backend(new QdrantDocumentStore(new QdrantClient(settings), LuceneStores.relevanceScorer(), 1024));
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
    Stream<DynamicTest> everySearchAnswersAsOnLucene() {
        return Stream.concat(
                QdrantVersusLuceneTest.SEARCHES.stream().map(body -> compare("products", body)),
                QdrantVersusLuceneTest.SCORED.stream().map(body -> compare("texts", body)));
    }

    private static DynamicTest compare(String index, String body) {
        return DynamicTest.dynamicTest(index + " " + body, () -> {
            SearchResult expected = QdrantVersusLuceneTest.search(lucene, index, body);
            for (boolean scan : new boolean[] {false, true}) {
                Backend side = scan ? new Backend(qdrant.store(), qdrant.scan(), qdrant.documents(), qdrant.scan())
                        : qdrant;
                String path = scan ? "complete scan" : "native";
                SearchResult actual = QdrantVersusLuceneTest.search(side, index, body);
                assertThat(actual.total()).as(path + ": total").isEqualTo(expected.total());
                assertThat(QdrantVersusLuceneTest.render(actual.hits())).as(path + ": hits")
                        .isEqualTo(QdrantVersusLuceneTest.render(expected.hits()));
                assertThat(Float.toString(actual.maxScore())).as(path + ": max_score")
                        .isEqualTo(Float.toString(expected.maxScore()));
                assertThat(QdrantVersusLuceneTest.aggregations(actual)).as(path + ": aggregations")
                        .isEqualTo(QdrantVersusLuceneTest.aggregations(expected));
            }
        });
    }
}
