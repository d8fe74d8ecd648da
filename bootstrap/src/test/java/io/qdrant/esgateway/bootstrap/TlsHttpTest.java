package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS on the gateway's listener, with key material made at test time by the JDK's {@code keytool}: a PKCS#12
 * keystore, the same as PEM certificate and PKCS#8 key, and required client certificates.
 */
class TlsHttpTest {
    static final char[] PASSWORD = "store-pass".toCharArray();

    @TempDir
    Path temp;

    /** A self-signed certificate for 127.0.0.1 and localhost in a new PKCS#12 keystore. */
    static Path keystore(Path dir, String name) throws IOException, InterruptedException {
        Path file = dir.resolve(name + ".p12");
        run(List.of(keytool(), "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", file.toString(), "-storepass", new String(PASSWORD),
                "-keypass", new String(PASSWORD)));
        return file;
    }

    /** The keystore's certificate as PEM. */
    static Path certificatePem(Path keystore, String name) throws IOException, InterruptedException {
        Path file = keystore.resolveSibling(name + ".crt");
        run(List.of(keytool(), "-exportcert", "-rfc", "-alias", name, "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", new String(PASSWORD), "-file", file.toString()));
        return file;
    }

    /** The keystore's private key as unencrypted PKCS#8 PEM. */
    static Path keyPem(Path keystore, String name) throws Exception {
        KeyStore store = load(keystore);
        PrivateKey key = (PrivateKey) store.getKey(name, PASSWORD);
        Path file = keystore.resolveSibling(name + ".key");
        Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return file;
    }

    static KeyStore load(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    /** An SSL context trusting {@code trusted}'s certificate and presenting {@code own}'s key, if given. */
    static SSLContext context(Path trusted, Path own) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        KeyStore server = load(trusted);
        String alias = server.aliases().nextElement();
        trust.setCertificateEntry("server", server.getCertificate(alias));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (own != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(own), PASSWORD);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }

    private static String keytool() {
        return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    private static RunningGateway start(Path data, Map<String, String> env) {
        List<String> pairs = new java.util.ArrayList<>();
        env.forEach((k, v) -> {
            pairs.add(k);
            pairs.add(v);
        });
        return RunningGateway.start(data, pairs.toArray(String[]::new));
    }

    private static int get(SSLContext context, int port, String path) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(5)).build();
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void aPkcs12KeystoreAndAPemPairServeHttps() throws Exception {
        Path p12 = keystore(temp, "server");
        Map<String, String> env = new HashMap<>(Map.of("QEG_TLS_KEYSTORE", p12.toString(),
                "QEG_TLS_KEYSTORE_PASSWORD", new String(PASSWORD)));
        try (RunningGateway gateway = start(Files.createDirectories(temp.resolve("a")), env)) {
            assertThat(get(context(p12, null), gateway.gateway.port(), "/")).isEqualTo(200);
            assertThatThrownBy(() -> gateway.client.get("/")).as("plain HTTP is not served").isInstanceOf(Exception.class);
        }
        Map<String, String> pem = Map.of("QEG_TLS_CERTIFICATE", certificatePem(p12, "server").toString(),
                "QEG_TLS_KEY", keyPem(p12, "server").toString());
        try (RunningGateway gateway = start(Files.createDirectories(temp.resolve("b")), pem)) {
            assertThat(get(context(p12, null), gateway.gateway.port(), "/_cluster/health")).isEqualTo(200);
        }
    }

    @Test
    void requiredClientCertificatesRefuseClientsWithoutOne() throws Exception {
        Path server = keystore(temp, "server");
        Path client = keystore(temp, "client");
        Map<String, String> env = Map.of("QEG_TLS_KEYSTORE", server.toString(),
                "QEG_TLS_KEYSTORE_PASSWORD", new String(PASSWORD), "QEG_TLS_CLIENT_AUTH", "required",
                "QEG_TLS_CLIENT_CA", certificatePem(client, "client").toString());
        try (RunningGateway gateway = start(Files.createDirectories(temp.resolve("c")), env)) {
            assertThat(get(context(server, client), gateway.gateway.port(), "/")).isEqualTo(200);
            assertThatThrownBy(() -> get(context(server, null), gateway.gateway.port(), "/"))
                    .as("no client certificate").isInstanceOf(IOException.class);
        }
    }

    @Test
    void aKeyFileInAnotherFormatStopsTheStartNamingTheSetting() throws Exception {
        Path p12 = keystore(temp, "server");
        Path bad = Files.writeString(temp.resolve("bad.key"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n");
        assertThatThrownBy(() -> start(Files.createDirectories(temp.resolve("d")), Map.of("QEG_TLS_CERTIFICATE",
                certificatePem(p12, "server").toString(), "QEG_TLS_KEY", bad.toString())))
                .hasMessageContaining("QEG_TLS_KEY").hasMessageContaining("PKCS#8");
        assertThatThrownBy(() -> start(Files.createDirectories(temp.resolve("e")), Map.of("QEG_TLS_KEYSTORE",
                p12.toString(), "QEG_TLS_KEYSTORE_PASSWORD", "wrong-password")))
                .hasMessageContaining("QEG_TLS_KEYSTORE").hasMessageNotContaining("wrong-password");
    }
}
