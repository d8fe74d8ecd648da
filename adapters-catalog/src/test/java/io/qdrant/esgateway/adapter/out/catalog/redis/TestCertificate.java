package io.qdrant.esgateway.adapter.out.catalog.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed server certificate for loopback TLS tests, made with the JDK's {@code keytool}: its PEM files for a
 * server, and client sockets that trust it (and nothing else).
 */
public record TestCertificate(Path certPem, Path keyPem, SSLSocketFactory trusting) {
    private static final char[] PASSWORD = "changeit".toCharArray();

    /** A certificate for the subject alternative name {@code san} (e.g. {@code ip:127.0.0.1}), written to {@code dir}. */
    public static TestCertificate create(Path dir, String san) {
        try {
            Path store = dir.resolve("server.p12");
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg",
                    "EC", "-groupname", "secp256r1", "-dname", "CN=qeg-test", "-ext", "san=" + san, "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", new String(PASSWORD)))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.log").toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("keytool failed: " + Files.readString(dir.resolve("keytool.log")));
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, PASSWORD);
            }
            Certificate cert = keys.getCertificate("server");
            PrivateKey key = (PrivateKey) keys.getKey("server", PASSWORD);
            Path certPem = Files.writeString(dir.resolve("server.crt"), pem("CERTIFICATE", cert.getEncoded()));
            Path keyPem = Files.writeString(dir.resolve("server.key"), pem("PRIVATE KEY", key.getEncoded()));

            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("server", cert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return new TestCertificate(certPem, keyPem, context.getSocketFactory());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not make a test certificate: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
