package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With security off (the default) every request runs without credentials and the security APIs say it is off. */
class SecurityOffHttpTest {
    @TempDir
    Path temp;

    @Test
    void requestsNeedNoCredentialsAndTheSecurityApisSayItIsOff() {
        try (RunningGateway gateway = RunningGateway.start(temp)) {
            EsClient client = gateway.client;
            assertThat(client.get("/").status()).isEqualTo(200);
            assertThat(client.get("/metrics").status()).isEqualTo(200);
            assertThat(client.as("anyone", "anything").get("/_cluster/health").status()).isEqualTo(200);
            EsClient.Reply r = client.get("/_security/_authenticate");
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.errorType()).isEqualTo("illegal_argument_exception");
            assertThat(r.errorReason()).contains("security is not enabled", "QEG_SECURITY=true");
            assertThat(client.post("/_security/api_key", "{\"name\":\"k\"}").status()).isEqualTo(400);
        }
    }
}
