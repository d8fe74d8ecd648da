package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The HTTP side of the adapter: one JDK {@link HttpClient} (HTTP/1.1, keep-alive connections reused), JSON bodies
 * through Jackson, Qdrant's response envelope unwrapped, and every failure turned into a {@link GatewayException}
 * whose message says what Qdrant rejected — never the API key, never a URL with credentials.
 *
 * <p>Retries: 429 and 503 are retried with backoff, honouring {@code Retry-After}, for idempotent reads only; a
 * write whose outcome is unknown is never retried.
 */
final class QdrantHttp implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(QdrantHttp.class.getName());
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final int READ_ATTEMPTS = 3;

    /** A Qdrant answer other than success; converted to a {@link GatewayException} by {@link #failure}. */
    static final class QdrantError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;
        final String qdrantMessage;

        QdrantError(int status, String qdrantMessage) {
            super(status + " " + qdrantMessage, null, false, false);
            this.status = status;
            this.qdrantMessage = qdrantMessage;
        }
    }

    /** Waits between read attempts; tests replace it so that they do not sleep. */
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final QdrantStores.Settings settings;
    private final HttpClient client;
    private final String base;
    volatile Sleeper sleeper = Thread::sleep;

    QdrantHttp(QdrantStores.Settings settings) {
        this.settings = settings;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout()).followRedirects(HttpClient.Redirect.NEVER).build();
        String url = settings.url().toString();
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    QdrantStores.Settings settings() {
        return settings;
    }

    /** Where Qdrant is, fit for messages. */
    String where() {
        return settings.display();
    }

    static String segment(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Sends one request and returns the envelope's {@code result}. {@code what} names the operation for messages
     * ("scroll the points of [index]").
     *
     * @throws QdrantError for an answer with an error status that the caller may want to interpret (404, 409)
     */
    JsonNode call(String method, String path, Map<String, String> query, JsonNode body, boolean idempotentRead,
                  String what) {
        StringBuilder uri = new StringBuilder(base).append(path);
        char sep = '?';
        for (Map.Entry<String, String> q : query.entrySet()) {
            uri.append(sep).append(q.getKey()).append('=').append(segment(q.getValue()));
            sep = '&';
        }
        byte[] bytes;
        try {
            bytes = body == null ? null : MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": the request for Qdrant"
                    + " cannot be written: " + e.getOriginalMessage(), Map.of(), e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri.toString()))
                .timeout(settings.requestTimeout())
                .header("Accept", "application/json")
                .method(method, bytes == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (bytes != null) {
            request.header("Content-Type", "application/json");
        }
        settings.apiKey().ifPresent(key -> request.header("api-key", key));
        HttpRequest built = request.build();
        int attempts = idempotentRead ? READ_ATTEMPTS : 1;
        for (int attempt = 1; ; attempt++) {
            HttpResponse<byte[]> response;
            try {
                response = client.send(built, HttpResponse.BodyHandlers.ofByteArray());
            } catch (HttpConnectTimeoutException e) {
                throw new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": connecting to Qdrant at "
                        + where() + " timed out after " + settings.connectTimeout().toMillis() + "ms", Map.of(), e);
            } catch (HttpTimeoutException e) {
                throw new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": Qdrant at " + where()
                        + " did not answer within " + settings.requestTimeout().toMillis() + "ms", Map.of(), e);
            } catch (ConnectException e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": cannot connect to Qdrant"
                        + " at " + where() + " (connection refused)", Map.of(), e);
            } catch (IOException e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": the connection to Qdrant"
                        + " at " + where() + " failed: " + e.getClass().getSimpleName(), Map.of(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted",
                        Map.of(), e);
            }
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                try {
                    JsonNode envelope = MAPPER.readTree(response.body());
                    JsonNode result = envelope == null ? null : envelope.get("result");
                    if (result == null) {
                        throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": Qdrant answered"
                                + " " + status + " without a result", Map.of(), null);
                    }
                    return result;
                } catch (IOException e) {
                    throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": Qdrant's answer is"
                            + " not JSON", Map.of(), e);
                }
            }
            if ((status == 429 || status == 503) && attempt < attempts) {
                long wait = backoff(attempt, response.headers().firstValue("Retry-After"));
                LOG.log(Level.FINE, () -> "Qdrant answered " + status + " to " + method + " " + path + "; retrying in "
                        + wait + "ms");
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted",
                            Map.of(), e);
                }
                continue;
            }
            throw new QdrantError(status, message(response));
        }
    }

    /** 100 ms, 200 ms, … or the server's {@code Retry-After} (seconds), at most 2 s. */
    static long backoff(int attempt, Optional<String> retryAfter) {
        long wait = 100L << (attempt - 1);
        if (retryAfter.isPresent()) {
            try {
                wait = Long.parseLong(retryAfter.get().trim()) * 1000;
            } catch (NumberFormatException ignored) {
                // an HTTP date: keep our own backoff
            }
        }
        return Math.max(0, Math.min(wait, 2000));
    }

    /** Qdrant's error text: {@code status.error} of the JSON envelope, or the plain-text body (auth errors). */
    private static String message(HttpResponse<byte[]> response) {
        String text = new String(response.body(), StandardCharsets.UTF_8);
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node != null && node.path("status").path("error").isTextual()) {
                return node.path("status").path("error").asText();
            }
        } catch (IOException notJson) {
            // plain text
        }
        text = text.strip();
        return text.length() > 500 ? text.substring(0, 500) + "…" : text;
    }

    /** An error answer as the gateway reports it. */
    GatewayException failure(QdrantError e, String what) {
        String said = "Qdrant answered " + e.status + ": " + e.qdrantMessage;
        return switch (e.status) {
            case 400, 422 -> new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Qdrant rejected the request to " + what
                    + ": " + e.qdrantMessage, Map.of(), e);
            case 401, 403 -> new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": Qdrant at " + where()
                    + " refused the credentials (" + e.status + "); check QEG_QDRANT_API_KEY", Map.of(), e);
            case 408 -> new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": " + said, Map.of(), e);
            case 429, 503 -> new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": " + said,
                    Map.of(), e);
            default -> new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": " + said, Map.of(), e);
        };
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    @Override
    public void close() {
        client.close();
    }
}
