package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accepted connections' socket options of a started gateway. TCP_NODELAY matters for every response written in
 * more than one piece: with Nagle on, the second piece waits for the client to ACK the first, and a client that
 * delays its ACKs (Linux: up to 40 ms) stalls the response by that much. Elasticsearch turns Nagle off too.
 */
class GatewaySocketOptionsTest {

    @Test
    void acceptedConnectionsSendWithoutNagleDelay(@TempDir Path dir) {
        try (RunningGateway g = RunningGateway.start(dir)) {
            assertThat(g.gateway.serverConfig().connectionOptions().tcpNoDelay()).isTrue();
            // and the server still answers on that listener
            assertThat(g.client.get("/").status()).isEqualTo(200);
        }
    }
}
