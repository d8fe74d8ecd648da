package io.qdrant.esgateway.bootstrap;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The container image's health check (the image has no shell and no curl): exits 0 when {@code GET /readyz} on the
 * local gateway ({@code QEG_PORT}, default 9200) answers 200 within two seconds, 1 otherwise.
 */
final class HealthCheck {
    private HealthCheck() {
    }

    public static void main(String[] args) {
        String port = System.getenv().getOrDefault("QEG_PORT", "9200");
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            HttpResponse<Void> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/readyz")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
            System.exit(response.statusCode() == 200 ? 0 : 1);
        } catch (Exception e) {
            System.err.println("not ready: " + e);
            System.exit(1);
        }
    }
}
