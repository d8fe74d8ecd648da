package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecurityConfigTest {

    @Test
    void securityIsOffByDefaultWithHealthOpenAndMetricsAuthenticated() {
        SecurityConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n")).security();
        assertThat(c.enabled()).isFalse();
        assertThat(c.healthOpen()).isTrue();
        assertThat(c.metricsOpen()).isFalse();
        assertThat(c.tls()).isFalse();
        assertThat(GatewayConfig.load(new String[] {"--security", "true"}, Map.of("QEG_NODE_NAME", "n")).security()
                .enabled()).isTrue();
    }

    @Test
    void aNonLoopbackAddressWithoutSecurityIsRefusedUnlessAnonymousAccessIsAllowed() {
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--host", "0.0.0.0"}, Map.of("QEG_NODE_NAME", "n")))
                .hasMessageContaining("refusing to listen on 0.0.0.0").hasMessageContaining("QEG_SECURITY=true")
                .hasMessageContaining("QEG_ALLOW_ANONYMOUS=true");
        assertThat(GatewayConfig.load(new String[] {"--host", "0.0.0.0"}, Map.of("QEG_NODE_NAME", "n",
                "QEG_ALLOW_ANONYMOUS", "true")).host()).isEqualTo("0.0.0.0");
        assertThat(GatewayConfig.load(new String[] {"--host", "0.0.0.0", "--security", "true"},
                Map.of("QEG_NODE_NAME", "n")).security().enabled()).isTrue();
        assertThat(GatewayConfig.load(new String[] {"--host", "localhost"}, Map.of("QEG_NODE_NAME", "n")).host())
                .isEqualTo("localhost");
    }

    @Test
    void secretsAreCheckedAndNeverShown() {
        GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n", "QEG_SECURITY", "true",
                "QEG_ELASTIC_PASSWORD", "very-secret-1"));
        assertThat(c.security().elasticPassword()).contains("very-secret-1");
        assertThat(c.toString()).doesNotContain("very-secret-1");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_ELASTIC_PASSWORD", "abc")))
                .hasMessageContaining("at least 6 characters").hasMessageNotContaining("abc]");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_TLS_CERTIFICATE", "/no/such.pem")))
                .hasMessageContaining("QEG_TLS_CERTIFICATE");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_TLS_CLIENT_AUTH", "required")))
                .hasMessageContaining("needs TLS");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_METRICS_ACCESS", "sometimes")))
                .hasMessageContaining("expected one of open, authenticated");
    }
}
