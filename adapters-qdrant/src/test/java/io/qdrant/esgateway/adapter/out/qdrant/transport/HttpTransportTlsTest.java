package io.qdrant.esgateway.adapter.out.qdrant.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An {@code https} Qdrant URL: TLS over the pooled socket, the server's name checked against its certificate. */
class HttpTransportTlsTest {
    private static final char[] PASSWORD = "changeit".toCharArray();

    /** A self-signed certificate for {@code names} (e.g. {@code dns:localhost}), made by the JDK's keytool. */
    private static KeyStore keyStore(Path dir, String names) throws Exception {
        Path file = dir.resolve("server.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keyalg", "EC", "-alias", "qdrant", "-dname", "CN=qdrant", "-ext", "san=" + names,
                "-validity", "2", "-keystore", file.toString(), "-storetype", "PKCS12",
                "-storepass", new String(PASSWORD)).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    private static HttpsServer server(KeyStore store) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        server.createContext("/", exchange -> {
            try (exchange) {
                byte[] answer = "{\"result\":{\"title\":\"qdrant\"}}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        server.start();
        return server;
    }

    private static javax.net.ssl.SSLSocketFactory trusting(KeyStore store) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context.getSocketFactory();
    }

    @Test
    void anHttpsUrlIsServedOverTlsOnAReusedConnection(@TempDir Path dir) throws Exception {
        KeyStore store = keyStore(dir, "dns:localhost");
        HttpsServer server = server(store);
        try (HttpTransport t = new HttpTransport(URI.create("https://localhost:" + server.getAddress().getPort()),
                Duration.ofSeconds(5), Duration.ofSeconds(10), trusting(store))) {
            for (int i = 0; i < 3; i++) {
                HttpTransport.Response r = t.exchange("GET", "/", null, new byte[0], true);
                assertThat(r.status()).isEqualTo(200);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("qdrant");
            }
            assertThat(t.opened()).isEqualTo(1);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefused(@TempDir Path dir) throws Exception {
        KeyStore store = keyStore(dir, "dns:elsewhere.example");
        HttpsServer server = server(store);
        try (HttpTransport t = new HttpTransport(URI.create("https://localhost:" + server.getAddress().getPort()),
                Duration.ofSeconds(5), Duration.ofSeconds(10), trusting(store))) {
            assertThatThrownBy(() -> t.exchange("GET", "/", null, new byte[0], true)).isInstanceOf(SSLException.class);
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            server.stop(0);
        }
    }
}
