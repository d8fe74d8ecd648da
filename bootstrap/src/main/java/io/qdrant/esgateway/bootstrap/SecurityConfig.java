package io.qdrant.esgateway.bootstrap;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The security and TLS settings, validated: whether authentication is on, the {@code elastic} password to bootstrap
 * with, which operations endpoints stay open, and the HTTPS listener's key material and client-certificate policy.
 * Listening on a non-loopback address with security off is refused unless anonymous access is explicitly allowed.
 * {@link #toString()} shows no secret.
 */
record SecurityConfig(boolean enabled, Optional<String> elasticPassword, boolean healthOpen, boolean metricsOpen,
                      Duration cacheTtl, Optional<Path> tlsCertificate, Optional<Path> tlsKey,
                      Optional<Path> tlsKeystore, Optional<String> tlsKeystorePassword, String tlsClientAuth,
                      Optional<Path> tlsClientCa) {

    boolean tls() {
        return tlsCertificate.isPresent() || tlsKeystore.isPresent();
    }

    @Override
    public String toString() {
        return "SecurityConfig[enabled=" + enabled + ", elasticPassword=" + (elasticPassword.isPresent() ? "<set>"
                : "<none>") + ", healthOpen=" + healthOpen + ", metricsOpen=" + metricsOpen + ", tls=" + tls()
                + ", tlsClientAuth=" + tlsClientAuth + "]";
    }

    static SecurityConfig validate(String host, Map<Setting, String> v, Map<Setting, String> from, Duration ttl) {
        boolean enabled = bool(Setting.SECURITY, v, from);
        boolean anonymous = bool(Setting.ALLOW_ANONYMOUS, v, from);
        if (!enabled && !anonymous && !isLoopback(host)) {
            throw new GatewayConfig.ConfigException("refusing to listen on " + host + " (from " + from.get(Setting.HOST)
                    + ") without authentication: set " + Setting.SECURITY.env() + "=true, or "
                    + Setting.ALLOW_ANONYMOUS.env() + "=true to serve anyone who can reach it");
        }
        Optional<String> password = Optional.of(v.get(Setting.ELASTIC_PASSWORD)).filter(p -> !p.isEmpty());
        if (password.isPresent() && password.get().length() < 6) {
            throw new GatewayConfig.ConfigException("invalid value for " + Setting.ELASTIC_PASSWORD.env() + " (from "
                    + from.get(Setting.ELASTIC_PASSWORD) + "): passwords must be at least 6 characters long");
        }
        boolean healthOpen = GatewayConfig.oneOf(Setting.HEALTH_ACCESS, v, from, "open", "authenticated")
                .equals("open");
        boolean metricsOpen = GatewayConfig.oneOf(Setting.METRICS_ACCESS, v, from, "open", "authenticated")
                .equals("open");
        Optional<Path> cert = file(Setting.TLS_CERTIFICATE, v, from);
        Optional<Path> key = file(Setting.TLS_KEY, v, from);
        Optional<Path> keystore = file(Setting.TLS_KEYSTORE, v, from);
        if (cert.isPresent() != key.isPresent()) {
            throw new GatewayConfig.ConfigException(Setting.TLS_CERTIFICATE.env() + " and " + Setting.TLS_KEY.env()
                    + " go together: give both, or " + Setting.TLS_KEYSTORE.env() + " instead");
        }
        if (cert.isPresent() && keystore.isPresent()) {
            throw new GatewayConfig.ConfigException("give either " + Setting.TLS_CERTIFICATE.env() + " and "
                    + Setting.TLS_KEY.env() + " or " + Setting.TLS_KEYSTORE.env() + ", not both");
        }
        String clientAuth = GatewayConfig.oneOf(Setting.TLS_CLIENT_AUTH, v, from, "none", "optional", "required");
        Optional<Path> clientCa = file(Setting.TLS_CLIENT_CA, v, from);
        if (!clientAuth.equals("none") && (clientCa.isEmpty() || cert.isEmpty() && keystore.isEmpty())) {
            throw new GatewayConfig.ConfigException(Setting.TLS_CLIENT_AUTH.env() + "=" + clientAuth + " needs TLS ("
                    + Setting.TLS_CERTIFICATE.env() + " or " + Setting.TLS_KEYSTORE.env() + ") and "
                    + Setting.TLS_CLIENT_CA.env());
        }
        return new SecurityConfig(enabled, password, healthOpen, metricsOpen, ttl, cert, key, keystore,
                Optional.of(v.get(Setting.TLS_KEYSTORE_PASSWORD)).filter(p -> !p.isEmpty()), clientAuth, clientCa);
    }

    private static boolean bool(Setting s, Map<Setting, String> v, Map<Setting, String> from) {
        return GatewayConfig.oneOf(s, v, from, "true", "false").equals("true");
    }

    private static Optional<Path> file(Setting s, Map<Setting, String> v, Map<Setting, String> from) {
        String text = v.get(s).trim();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(text);
        if (!Files.isReadable(path)) {
            throw new GatewayConfig.ConfigException("invalid value [" + text + "] for " + s.env() + " (from "
                    + from.get(s) + "): no readable file there");
        }
        return Optional.of(path);
    }

    /** Whether {@code host} names only this machine (a loopback address or a name resolving to one). */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
