package io.qdrant.esgateway.bootstrap;

import io.helidon.common.tls.Tls;
import io.helidon.common.tls.TlsClientAuth;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The HTTPS listener's key material, read at start with the JDK only: a PEM certificate chain with its PKCS#8 PEM
 * key (RSA, EC or Ed25519), or a PKCS#12 keystore; and, for client certificates, the PEM authorities they must chain
 * to. A file that cannot be read stops the start with a message naming the setting, never a secret.
 */
final class TlsMaterial {
    private TlsMaterial() {
    }

    static Optional<Tls> of(SecurityConfig config) {
        if (!config.tls()) {
            return Optional.empty();
        }
        PrivateKey key;
        List<X509Certificate> chain;
        if (config.tlsKeystore().isPresent()) {
            Path file = config.tlsKeystore().get();
            char[] password = config.tlsKeystorePassword().orElse("").toCharArray();
            try (InputStream in = Files.newInputStream(file)) {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(in, password);
                String alias = Collections.list(store.aliases()).stream().filter(a -> isKey(store, a)).findFirst()
                        .orElseThrow(() -> failure(Setting.TLS_KEYSTORE, file, "it holds no private key", null));
                key = (PrivateKey) store.getKey(alias, password);
                chain = new ArrayList<>();
                for (Certificate c : store.getCertificateChain(alias)) {
                    chain.add((X509Certificate) c);
                }
            } catch (IOException | GeneralSecurityException e) {
                throw failure(Setting.TLS_KEYSTORE, file, "not a PKCS#12 keystore this password opens", e);
            }
        } else {
            chain = certificates(Setting.TLS_CERTIFICATE, config.tlsCertificate().orElseThrow());
            key = privateKey(config.tlsKey().orElseThrow());
        }
        var tls = Tls.builder().privateKey(key).privateKeyCertChain(chain);
        switch (config.tlsClientAuth()) {
            case "required" -> tls.clientAuth(TlsClientAuth.REQUIRED);
            case "optional" -> tls.clientAuth(TlsClientAuth.OPTIONAL);
            default -> tls.clientAuth(TlsClientAuth.NONE);
        }
        config.tlsClientCa().ifPresent(ca -> tls.trust(certificates(Setting.TLS_CLIENT_CA, ca)));
        return Optional.of(tls.build());
    }

    private static boolean isKey(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static List<X509Certificate> certificates(Setting setting, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw failure(setting, file, "it holds no certificate", null);
            }
            return out;
        } catch (IOException | GeneralSecurityException e) {
            throw failure(setting, file, "not PEM X.509 certificates", e);
        }
    }

    private static PrivateKey privateKey(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw failure(Setting.TLS_KEY, file, "cannot be read", e);
        }
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw failure(Setting.TLS_KEY, file, "expected an unencrypted PKCS#8 key (-----BEGIN PRIVATE KEY-----;"
                    + " convert others with openssl pkcs8 -topk8 -nocrypt)", null);
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + 27, end));
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "EdDSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw failure(Setting.TLS_KEY, file, "not an RSA, EC or Ed25519 PKCS#8 key", null);
    }

    private static GatewayConfig.ConfigException failure(Setting setting, Path file, String why, Throwable cause) {
        GatewayConfig.ConfigException e = new GatewayConfig.ConfigException("cannot use " + file + " for "
                + setting.env() + ": " + why);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }
}
