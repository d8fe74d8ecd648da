package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayConfigTest {

    @Test
    void defaultsAreTheEmbeddedGatewayOnLoopback9200() {
        GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n"));
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(9200);
        assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
        assertThat(c.backend()).isEqualTo("lucene");
        assertThat(c.catalog()).isEqualTo("sqlite");
        assertThat(c.esVersion()).isEqualTo("8.15.0");
        assertThat(c.maxContentLength()).isEqualTo(100L * 1024 * 1024);
        assertThat(c.warmUp()).as("the start-up JIT warm-up is on by default").isTrue();
    }

    @Test
    void theAnalysisFilesAreInConfigNextToTheDataDirectoryUnlessGiven(@TempDir Path dir) {
        assertThat(GatewayConfig.load(new String[0], Map.of("QEG_DATA_DIR", dir.resolve("data").toString()))
                .configDir()).isEqualTo(dir.resolve("config").toAbsolutePath().normalize());
        assertThat(GatewayConfig.load(new String[] {"--config-dir", dir.resolve("etc").toString()}, Map.of())
                .configDir()).isEqualTo(dir.resolve("etc").toAbsolutePath().normalize());
        assertThat(GatewayConfig.load(new String[0], Map.of("QEG_CONFIG_DIR", "rel")).configDir())
                .isEqualTo(Path.of("rel").toAbsolutePath().normalize());
    }

    @Test
    void theWarmUpIsOnOrOff() {
        assertThat(GatewayConfig.load(new String[] {"--warm-up", "off"}, Map.of()).warmUp()).isFalse();
        assertThat(GatewayConfig.load(new String[0], Map.of("QEG_WARM_UP", "OFF")).warmUp()).isFalse();
        assertThat(GatewayConfig.load(new String[0], Map.of("QEG_WARM_UP", "on")).warmUp()).isTrue();
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--warm-up", "maybe"}, Map.of()))
                .hasMessage("invalid value [maybe] for QEG_WARM_UP (from --warm-up): expected one of on, off");
    }

    @Test
    void flagsBeatEnvironmentWhichBeatsTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("qeg.yaml");
        Files.writeString(file, "qeg:\n  port: 9300\n  data-dir: /from/file\n  cluster-name: from-file\n");
        GatewayConfig c = GatewayConfig.load(new String[] {"--port", "9500", "--config", file.toString()},
                Map.of("QEG_PORT", "9400", "QEG_DATA_DIR", "/from/env"));
        assertThat(c.port()).isEqualTo(9500);
        assertThat(c.dataDir()).isEqualTo(Path.of("/from/env"));
        assertThat(c.clusterName()).isEqualTo("from-file");
        GatewayConfig eq = GatewayConfig.load(new String[] {"--data=/x", "--port=1"}, Map.of());
        assertThat(eq.dataDir()).isEqualTo(Path.of("/x"));
        assertThat(eq.port()).isEqualTo(1);
    }

    @Test
    void theQdrantBackendIsConfiguredByFlagEnvironmentAndDefaults() {
        GatewayConfig config = GatewayConfig.load(new String[] {"--backend", "qdrant", "--qdrant-url",
                "http://10.0.0.7:6333"}, Map.of("QEG_QDRANT_API_KEY", "k3y", "QEG_QDRANT_CONNECT_TIMEOUT", "750ms"));
        org.assertj.core.api.Assertions.assertThat(config.backend()).isEqualTo("qdrant");
        org.assertj.core.api.Assertions.assertThat(config.qdrantUrl()).hasToString("http://10.0.0.7:6333");
        org.assertj.core.api.Assertions.assertThat(config.qdrantApiKey()).contains("k3y");
        org.assertj.core.api.Assertions.assertThat(config.qdrantConnectTimeout())
                .isEqualTo(java.time.Duration.ofMillis(750));
        org.assertj.core.api.Assertions.assertThat(config.qdrantRequestTimeout())
                .isEqualTo(java.time.Duration.ofSeconds(30));
        org.assertj.core.api.Assertions.assertThat(config.toString()).doesNotContain("k3y");
        GatewayConfig defaults = GatewayConfig.load(new String[0], Map.of());
        org.assertj.core.api.Assertions.assertThat(defaults.backend()).isEqualTo("lucene");
        org.assertj.core.api.Assertions.assertThat(defaults.qdrantApiKey()).isEmpty();
        org.assertj.core.api.Assertions.assertThat(defaults.qdrantPoolSize()).isEqualTo(32);
    }

    @Test
    void theQdrantPoolSizeComesFromFlagEnvironmentOrFileAndIsBounded(@TempDir Path dir) throws Exception {
        org.assertj.core.api.Assertions.assertThat(GatewayConfig.load(new String[] {"--qdrant-pool-size", "4"},
                Map.of("QEG_QDRANT_POOL_SIZE", "9")).qdrantPoolSize()).isEqualTo(4);
        org.assertj.core.api.Assertions.assertThat(GatewayConfig.load(new String[0],
                Map.of("QEG_QDRANT_POOL_SIZE", "9")).qdrantPoolSize()).isEqualTo(9);
        Path file = dir.resolve("application.yaml");
        java.nio.file.Files.writeString(file, "qeg:\n  qdrant-pool-size: 16\n");
        org.assertj.core.api.Assertions.assertThat(GatewayConfig.load(new String[] {"--config", file.toString()},
                Map.of()).qdrantPoolSize()).isEqualTo(16);
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--qdrant-pool-size", "0"}, Map.of()))
                .hasMessage("invalid value [0] for QEG_QDRANT_POOL_SIZE (from --qdrant-pool-size): expected a whole"
                        + " number from 1 to 1024");
    }

    @Test
    void badValuesNameTheSettingItsSourceAndWhatIsAllowed() {
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_PORT", "http")))
                .hasMessage("invalid value [http] for QEG_PORT (from QEG_PORT): expected a whole number from 0 to 65535");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--port", "70000"}, Map.of()))
                .hasMessageContaining("(from --port)");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--backend", "elastic"}, Map.of()))
                .hasMessageContaining("QEG_BACKEND").hasMessageContaining("one of lucene");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--qdrant-url", "ftp://x"}, Map.of()))
                .hasMessageContaining("QEG_QDRANT_URL");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_QDRANT_URL",
                "http://admin:s3cret@127.0.0.1:6333"))).hasMessageContaining("must not carry credentials")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_QDRANT_REQUEST_TIMEOUT", "soon")))
                .hasMessageContaining("QEG_QDRANT_REQUEST_TIMEOUT");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--colour", "x"}, Map.of()))
                .hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--port"}, Map.of()))
                .hasMessage("option --port needs a value");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_MAX_CONTENT_LENGTH", "lots")))
                .hasMessageContaining("QEG_MAX_CONTENT_LENGTH");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_CONFIG", "/no/such/file.yaml")))
                .hasMessage("configuration file /no/such/file.yaml does not exist");
    }

    @Test
    void theSharedCatalogIsValkeyOrRedisAtAUrlWhosePasswordIsNeverShown() {
        GatewayConfig c = GatewayConfig.load(new String[] {"--catalog", "redis"}, Map.of(
                "QEG_REDIS_URL", "rediss://gw:s3cret@cache.example:6380/2", "QEG_REDIS_PREFIX", "shop:"));
        assertThat(c.catalog()).isEqualTo("redis");
        assertThat(c.redisUrl().orElseThrow().getHost()).isEqualTo("cache.example");
        assertThat(c.redisUrl().orElseThrow().getUserInfo()).isEqualTo("gw:s3cret");
        assertThat(c.redisPrefix()).isEqualTo("shop:");
        assertThat(c.toString()).contains("rediss://cache.example:6380/2").doesNotContain("s3cret");
        GatewayConfig defaults = GatewayConfig.load(new String[0], Map.of());
        assertThat(defaults.redisUrl()).isEmpty();
        assertThat(defaults.redisPrefix()).isEqualTo("qeg:");

        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_REDIS_URL",
                "http://gw:s3cret@cache:6379"))).hasMessageContaining("QEG_REDIS_URL")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_REDIS_URL", "redis://cache:6379/x")))
                .hasMessageContaining("QEG_REDIS_URL");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_REDIS_PREFIX", "a b")))
                .hasMessageContaining("QEG_REDIS_PREFIX");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--catalog", "redis"}, Map.of()))
                .hasMessageContaining("QEG_CATALOG=redis").hasMessageContaining("needs QEG_REDIS_URL");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--catalog", "etcd"}, Map.of()))
                .hasMessageContaining("expected one of sqlite, redis");
    }

    @Test
    void admissionLimitsHaveDefaultsAndAreValidated() {
        GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n"));
        assertThat(c.limits().maxConcurrentRequests()).isEqualTo(256);
        assertThat(c.limits().maxQueuedRequests()).isEqualTo(1000);
        assertThat(c.limits().indexingPressureBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 10);
        GatewayConfig set = GatewayConfig.load(new String[0], Map.of("QEG_MAX_CONCURRENT_REQUESTS", "3",
                "QEG_MAX_QUEUED_REQUESTS", "0", "QEG_INDEXING_PRESSURE_MEMORY_LIMIT", "64kb"));
        assertThat(set.limits()).isEqualTo(new io.qdrant.esgateway.adapter.in.http.EsRestApi.Limits(3, 0, 65536));
        assertThat(GatewayConfig.load(new String[0], Map.of("QEG_INDEXING_PRESSURE_MEMORY_LIMIT", "50%"))
                .limits().indexingPressureBytes()).isEqualTo((long) (Runtime.getRuntime().maxMemory() * 50.0 / 100));
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_MAX_CONCURRENT_REQUESTS", "0")))
                .hasMessageContaining("QEG_MAX_CONCURRENT_REQUESTS");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_INDEXING_PRESSURE_MEMORY_LIMIT",
                "150%"))).hasMessageContaining("QEG_INDEXING_PRESSURE_MEMORY_LIMIT").hasMessageContaining("10%");
    }

    @Test
    void everySettingHasAnEnvironmentVariable() {
        for (Setting s : Setting.all()) {
            assertThat(s.env()).startsWith("QEG_");
        }
    }

    @Test
    void theSharedResponseCacheIsOffByDefaultAndNeedsARedisUrlOtherwise() {
        GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n"));
        assertThat(c.responseCache()).isEqualTo("off");
        assertThat(c.localRequestCacheEntries()).isEqualTo(c.requestCacheEntries()).isPositive();
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_RESPONSE_CACHE", "on")))
                .hasMessageContaining("QEG_RESPONSE_CACHE=on").hasMessageContaining("needs QEG_REDIS_URL");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_RESPONSE_CACHE", "sometimes")))
                .hasMessageContaining("expected one of off, on, coordinate");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_REDIS_URL", "http://cache:6379")))
                .hasMessageContaining("redis://");
        GatewayConfig shared = GatewayConfig.load(new String[0], Map.of("QEG_RESPONSE_CACHE", "coordinate",
                "QEG_REDIS_URL", "rediss://user:secret@cache:6380/2", "QEG_RESPONSE_CACHE_TTL", "30s",
                "QEG_RESPONSE_CACHE_MAX_ENTRY", "64kb"));
        assertThat(shared.redisUrl()).hasValueSatisfying(u -> assertThat(u.getPort()).isEqualTo(6380));
        assertThat(shared.redisPrefix()).isEqualTo("qeg:");
        assertThat(shared.responseCacheTtl()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(shared.responseCacheMaxEntry()).isEqualTo(64 * 1024);
        assertThat(shared.toString()).doesNotContain("secret");
        assertThat(shared.responseCacheLease()).as("the default lease term").isEqualTo(java.time.Duration.ofSeconds(1));
        assertThat(shared.responseCacheMinUses()).as("published on a replica's second computation").isEqualTo(2);
    }

    @Test
    void theMinimumUsesBeforePublishingAreOneToSeven() {
        java.util.function.Function<String, GatewayConfig> with = uses -> GatewayConfig.load(new String[0], Map.of(
                "QEG_RESPONSE_CACHE", "on", "QEG_REDIS_URL", "redis://127.0.0.1:6379",
                "QEG_RESPONSE_CACHE_MIN_USES", uses));
        assertThat(with.apply("1").responseCacheMinUses()).isEqualTo(1);
        assertThat(with.apply("7").responseCacheMinUses()).isEqualTo(7);
        assertThatThrownBy(() -> with.apply("0")).hasMessageContaining("QEG_RESPONSE_CACHE_MIN_USES");
        assertThatThrownBy(() -> with.apply("8")).hasMessageContaining("QEG_RESPONSE_CACHE_MIN_USES");
    }

    @Test
    void theLeaseTermIsOffOrADurationUpToTenSeconds() {
        java.util.function.Function<String, GatewayConfig> with = lease -> GatewayConfig.load(new String[0], Map.of(
                "QEG_RESPONSE_CACHE", "on", "QEG_REDIS_URL", "redis://127.0.0.1:6379",
                "QEG_RESPONSE_CACHE_LEASE", lease));
        assertThat(with.apply("off").responseCacheLease()).isZero();
        assertThat(with.apply("250ms").responseCacheLease()).isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(with.apply("10s").responseCacheLease()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThatThrownBy(() -> with.apply("11s")).hasMessageContaining("QEG_RESPONSE_CACHE_LEASE")
                .hasMessageContaining("off or a duration up to 10s");
        assertThatThrownBy(() -> with.apply("0")).hasMessageContaining("QEG_RESPONSE_CACHE_LEASE");
    }

    @Test
    void theProcessLocalRequestCacheIsOffWhileTheSharedOneIsOnOrCoordinating() {
        for (String mode : new String[] {"on", "coordinate"}) {
            GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_RESPONSE_CACHE", mode,
                    "QEG_REDIS_URL", "redis://127.0.0.1:6379", "QEG_REQUEST_CACHE_ENTRIES", "500"));
            assertThat(c.requestCacheEntries()).isEqualTo(500);
            assertThat(c.localRequestCacheEntries()).as(mode).isZero();
        }
    }
}
