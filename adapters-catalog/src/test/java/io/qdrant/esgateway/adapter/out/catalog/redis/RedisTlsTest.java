package io.qdrant.esgateway.adapter.out.catalog.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rediss://} URLs: the catalog speaks TLS to a real Redis/Valkey TLS port, trusts only what its trust store
 * trusts, and checks that the certificate names the host it connected to.
 */
class RedisTlsTest {
    @TempDir
    static Path dir;
    private static TestCertificate certificate;
    private static RedisTestServer server;

    @BeforeAll
    static void start() {
        certificate = TestCertificate.create(dir, "ip:127.0.0.1");
        server = RedisTestServer.startTls(certificate.certPem(), certificate.keyPem());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static RedisCatalog open(String host, SSLSocketFactory tls) {
        return RedisCatalog.open(new RedisCatalogs.Settings(URI.create("rediss://" + host + ":" + server.tlsPort()
                + "/1"), "tls:", Duration.ofSeconds(3), 2), null, CatalogRecords.Limits.DEFAULT, tls);
    }

    @Test
    void aRedissUrlKeepsTheCatalogOverTls() {
        try (RedisCatalog catalog = open("127.0.0.1", certificate.trusting())) {
            catalog.ping();
            catalog.createIndex(new IndexMetadata("over-tls", "uuid-over-tls", Instant.EPOCH, IndexSettings.DEFAULTS,
                    Mappings.EMPTY), List.of());
            assertThat(catalog.view().indices()).containsKey("over-tls");
        }
    }

    @Test
    void aCertificateTheTrustStoreDoesNotTrustIsRefused() {
        try (RedisCatalog catalog = open("127.0.0.1", null)) { // the JVM's own trust store
            GatewayException e = catchThrowableOfType(GatewayException.class, catalog::ping);
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
            assertThat(causes(e)).anyMatch(c -> c instanceof SSLException);
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefused() {
        // trusted, but issued for 127.0.0.1 only: "localhost" is not a name it carries
        try (RedisCatalog catalog = open("localhost", certificate.trusting())) {
            GatewayException e = catchThrowableOfType(GatewayException.class, catalog::ping);
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
            assertThat(causes(e)).anyMatch(c -> c instanceof SSLException
                    && String.valueOf(c.getMessage()).contains("localhost"));
        }
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new java.util.ArrayList<>();
        for (Throwable t = e; t != null && !all.contains(t); t = t.getCause()) {
            all.add(t);
            all.addAll(List.of(t.getSuppressed()));
        }
        return all;
    }
}
