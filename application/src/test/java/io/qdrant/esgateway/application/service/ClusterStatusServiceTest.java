package io.qdrant.esgateway.application.service;

import static io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation.PING;
import static io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation.STATS;
import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.Health;
import io.qdrant.esgateway.application.port.in.ClusterStatus.IndexSummary;
import io.qdrant.esgateway.application.port.in.ClusterStatus.Readiness;
import io.qdrant.esgateway.application.port.in.ClusterStatus.Status;
import io.qdrant.esgateway.application.port.out.DocumentStore.StoreStats;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterStatusServiceTest {

    /** A catalog that can be switched off, as when its database or server cannot be reached. */
    private static final class SwitchableCatalog extends InMemoryCatalog {
        private volatile boolean down;

        @Override
        public CatalogView view() {
            failIfDown();
            return super.view();
        }

        @Override
        public void ping() {
            failIfDown();
        }

        private void failIfDown() {
            if (down) {
                throw GatewayException.backendUnavailable("catalog database is locked", null);
            }
        }
    }

    private final SwitchableCatalog catalog = new SwitchableCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private final ClusterStatusService service = new ClusterStatusService(catalog, store);

    private void index(String name, int shards, int replicas, String... aliases) {
        IndexSettings settings = new IndexSettings(shards, replicas, Optional.empty(), 10_000, false);
        catalog.createIndex(new IndexMetadata(name, "uuid-" + name, Instant.EPOCH, settings, Mappings.EMPTY),
                List.of(aliases).stream().map(a -> AliasMetadata.plain(a, name)).toList());
    }

    @Test
    void givenAReachableBackend_thenHealthIsGreenWithEveryIndexActive() {
        index("a", 1, 1);
        index("b", 3, 0);

        Health health = service.health(Optional.empty());

        assertThat(health).isEqualTo(new Health(Status.GREEN, 2, 2, 2));
    }

    @Test
    void givenAnEmptyCatalog_thenHealthIsGreenWithNothingActive() {
        assertThat(service.health(Optional.empty())).isEqualTo(new Health(Status.GREEN, 0, 0, 0));
    }

    @Test
    void givenTheDocumentBackendIsDown_thenHealthIsRedWithNoActiveShards() {
        index("a", 1, 1);
        index("b", 1, 1);
        store.failOn(PING, GatewayException.backendUnavailable("qdrant unreachable", null));

        Health health = service.health(Optional.empty());

        assertThat(health).isEqualTo(new Health(Status.RED, 2, 0, 0));
    }

    @Test
    void healthOfAnExpressionCountsOnlyTheIndicesItNames() {
        index("logs-1", 1, 1, "logs");
        index("logs-2", 1, 1, "logs");
        index("other", 1, 1);

        assertThat(service.health(Optional.of("logs")).numberOfIndices()).isEqualTo(2);
        assertThat(service.health(Optional.of("other,logs-1")).numberOfIndices()).isEqualTo(2);
        assertThat(service.health(Optional.of("o*")).numberOfIndices()).isEqualTo(1);
    }

    @Test
    void healthOfAnExpressionThatNamesNothingIsIndexNotFound() {
        index("a", 1, 1);

        failure(ErrorKind.INDEX_NOT_FOUND, () -> service.health(Optional.of("missing")));
        failure(ErrorKind.INDEX_NOT_FOUND, () -> service.health(Optional.of("nothing-*")));
    }

    @Test
    void givenTheCatalogIsDown_thenHealthReportsTheCatalogFailure() {
        index("a", 1, 1);
        catalog.down = true;

        failure(ErrorKind.BACKEND_UNAVAILABLE, () -> service.health(Optional.empty()));
    }

    @Test
    void indicesListsEveryIndexSortedWithItsStorageStatistics() {
        index("b", 3, 0);
        index("a", 1, 2);
        store.withStats("a", new StoreStats(10, 1, 2048)).withStats("b", new StoreStats(5, 0, 100));

        List<IndexSummary> rows = service.indices(Optional.empty());

        assertThat(rows).containsExactly(
                new IndexSummary("a", "uuid-a", Status.GREEN, 1, 2, 10, 1, 2048),
                new IndexSummary("b", "uuid-b", Status.GREEN, 3, 0, 5, 0, 100));
    }

    @Test
    void indicesOfAnExpressionListOnlyWhatItNames() {
        index("logs-1", 1, 1, "logs");
        index("other", 1, 1);

        assertThat(service.indices(Optional.of("logs"))).extracting(IndexSummary::name).containsExactly("logs-1");
        assertThat(service.indices(Optional.of("nothing-*"))).isEmpty();
        failure(ErrorKind.INDEX_NOT_FOUND, () -> service.indices(Optional.of("missing")));
    }

    @Test
    void givenTheDocumentBackendFailsOnStatistics_thenIndicesReportsTheFailure() {
        index("a", 1, 1);
        store.failOn(STATS, GatewayException.backendUnavailable("qdrant unreachable", null));

        GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> service.indices(Optional.empty()));

        assertThat(e.getMessage()).isEqualTo("qdrant unreachable");
    }

    @Test
    void givenTheCatalogIsDown_thenIndicesReportsTheCatalogFailure() {
        catalog.down = true;

        failure(ErrorKind.BACKEND_UNAVAILABLE, () -> service.indices(Optional.empty()));
    }

    @Test
    void givenBothBackendsAnswer_thenTheGatewayIsReady() {
        assertThat(service.readiness()).isEqualTo(new Readiness(true, List.of(), List.of(
                new ClusterStatus.Dependency("catalog", Optional.empty()),
                new ClusterStatus.Dependency("memory", Optional.empty()))));
    }

    @Test
    void givenTheDocumentBackendIsDown_thenReadinessNamesIt() {
        store.failOn(PING, GatewayException.backendUnavailable("qdrant unreachable", null));

        Readiness readiness = service.readiness();

        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.problems()).containsExactly("memory: qdrant unreachable");
        assertThat(readiness.dependencies()).containsExactly(
                new ClusterStatus.Dependency("catalog", Optional.empty()),
                new ClusterStatus.Dependency("memory", Optional.of("qdrant unreachable")));
    }

    @Test
    void givenTheCatalogIsDown_thenReadinessNamesIt() {
        catalog.down = true;

        Readiness readiness = service.readiness();

        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.problems()).containsExactly("catalog: catalog database is locked");
    }

    @Test
    void givenBothAreDown_thenReadinessNamesBoth() {
        catalog.down = true;
        store.failOn(PING, new IllegalStateException("connection refused"));

        Readiness readiness = service.readiness();

        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.problems()).containsExactly("catalog: catalog database is locked",
                "memory: connection refused");
    }

    @Test
    void readinessReportsTheSharedResponseCacheWhenThereIsOne() {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        io.qdrant.esgateway.application.port.out.InMemorySharedResponseCache shared =
                new io.qdrant.esgateway.application.port.out.InMemorySharedResponseCache(1024) {
                    @Override
                    public void ping() {
                        if (down.get()) {
                            throw GatewayException.backendUnavailable("valkey refused the connection", null);
                        }
                    }
                };
        ClusterStatusService withCache = new ClusterStatusService(catalog, store, shared);
        assertThat(withCache.readiness().ready()).isTrue();
        down.set(true);
        assertThat(withCache.readiness().ready()).isFalse();
        assertThat(withCache.readiness().problems()).singleElement().asString()
                .startsWith("response cache: ").contains("valkey refused the connection");
        assertThat(service.readiness().ready()).as("without a shared cache, nothing to report").isTrue();
    }
}
