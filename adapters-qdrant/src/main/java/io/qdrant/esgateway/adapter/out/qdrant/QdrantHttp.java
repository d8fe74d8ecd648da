package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The HTTP side of the adapter: one {@link QdrantTransport} (our own blocking HTTP/1.1 client: keep-alive sockets
 * pooled and reused, the exchange run on the caller's thread), JSON bodies through Jackson, Qdrant's response envelope unwrapped, and every failure turned into a {@link GatewayException}
 * whose message says what Qdrant rejected — never the API key, never a URL with credentials.
 *
 * <p>Retries: 429 and 503 are retried with backoff, honouring {@code Retry-After}, for idempotent reads only; a
 * write whose outcome is unknown is never retried.
 *
 * <p>Pool: at most {@link QdrantStores.Settings#poolSize()} requests are in flight at once (a fair semaphore; each
 * exchange holds one connection, idle ones are pooled), so the gateway never holds more connections to Qdrant than
 * that; a request that waits longer than the request timeout for a free slot fails
 * as a backend timeout. Every attempt is reported to the {@link BackendObserver} (operation, status, bytes, time).
 */
final class QdrantHttp implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(QdrantHttp.class.getName());
    /**
     * Jackson with a shared pool of its parse and write buffers: the default pool keeps them per thread, and every
     * request runs on a new virtual thread, so each call allocated fresh ones (~16 KB).
     */
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.newConcurrentDequePool()).build());
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
    private final QdrantTransport transport;
    private final String base;
    private final byte[] headers;
    private final BackendObserver observer;
    private final Semaphore slots;
    volatile Sleeper sleeper = Thread::sleep;

    QdrantHttp(QdrantStores.Settings settings) {
        this(settings, BackendObserver.NONE);
    }

    QdrantHttp(QdrantStores.Settings settings, BackendObserver observer) {
        this(settings, observer, new QdrantTransport(settings.url(), settings.connectTimeout(),
                settings.requestTimeout()));
    }

    QdrantHttp(QdrantStores.Settings settings, BackendObserver observer, QdrantTransport transport) {
        this.settings = settings;
        this.observer = observer;
        this.slots = new Semaphore(settings.poolSize(), true);
        this.transport = transport;
        String path = settings.url().getRawPath() == null ? "" : settings.url().getRawPath();
        this.base = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String key = settings.apiKey().orElse(null);
        if (key != null && key.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            throw new IllegalArgumentException("the Qdrant API key must be printable ASCII (QEG_QDRANT_API_KEY)");
        }
        this.headers = key == null ? new byte[0]
                : ("api-key: " + key + "\r\n").getBytes(StandardCharsets.US_ASCII);
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
        byte[] answer = answer(method, path, query, body, idempotentRead, what);
        try {
            JsonNode envelope = MAPPER.readTree(answer);
            JsonNode result = envelope == null ? null : envelope.get("result");
            if (result == null) {
                throw withoutResult(what);
            }
            return result;
        } catch (IOException e) {
            throw notJson(what, e);
        }
    }

    /**
     * Reads a Qdrant {@code result} straight from the answer's bytes: the parser stands on the result's first token
     * (an array's {@code START_ARRAY}, a {@code VALUE_NULL}, …), and the decoder must consume exactly that value.
     */
    @FunctionalInterface
    interface ResultDecoder<T> {
        T decode(JsonParser parser) throws IOException;
    }

    /**
     * The same as {@link #call}, with the envelope's {@code result} read by {@code decoder} from a streaming parser —
     * no {@code JsonNode} tree for answers the adapter reads on every request. Same errors as {@link #call}.
     */
    <T> T call(String method, String path, Map<String, String> query, JsonNode body, boolean idempotentRead,
               String what, ResultDecoder<T> decoder) {
        byte[] answer = answer(method, path, query, body, idempotentRead, what);
        try (JsonParser parser = MAPPER.createParser(answer)) {
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    if (name.equals("result")) {
                        T result = decoder.decode(parser);
                        parser.skipChildren(); // a decoder that stopped early: the rest of its value
                        return result;
                    }
                    parser.skipChildren();
                }
            }
            throw withoutResult(what);
        } catch (IOException e) {
            throw notJson(what, e);
        }
    }

    private static GatewayException withoutResult(String what) {
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": Qdrant answered without a"
                + " result", Map.of(), null);
    }

    private static GatewayException notJson(String what, IOException e) {
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": Qdrant's answer is not JSON"
                + (e instanceof JsonProcessingException j ? " (" + j.getOriginalMessage() + ")" : ""), Map.of(), e);
    }

    /** Sends one request (retrying reads on 429/503) and returns the body of its 2xx answer. */
    private byte[] answer(String method, String path, Map<String, String> query, JsonNode body,
                          boolean idempotentRead, String what) {
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
        String target = uri.toString();
        int attempts = idempotentRead ? READ_ATTEMPTS : 1;
        for (int attempt = 1; ; attempt++) {
            QdrantTransport.Response response;
            acquireSlot(what);
            long t0 = System.nanoTime();
            String outcome = "error";
            long received = 0;
            try {
                response = transport.exchange(method, target, bytes, headers, idempotentRead);
                outcome = Integer.toString(response.status());
                received = response.body().length;
            } catch (QdrantTransport.Timeout e) {
                outcome = "timeout";
                if (e.connecting) {
                    throw new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": connecting to Qdrant"
                            + " at " + where() + " timed out after " + settings.connectTimeout().toMillis() + "ms",
                            Map.of(), e);
                }
                throw new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": Qdrant at " + where()
                        + " did not answer within " + settings.requestTimeout().toMillis() + "ms", Map.of(), e);
            } catch (ConnectException e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": cannot connect to Qdrant"
                        + " at " + where() + " (connection refused)", Map.of(), e);
            } catch (IOException e) {
                if (Thread.currentThread().isInterrupted()) { // a blocked socket read or write ends so when interrupted
                    throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted",
                            Map.of(), e);
                }
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": the connection to Qdrant"
                        + " at " + where() + " failed: " + e.getClass().getSimpleName(), Map.of(), e);
            } finally {
                slots.release();
                observer.called(new BackendObserver.Call("qdrant", operation(method, path), outcome,
                        bytes == null ? 0 : bytes.length, received, System.nanoTime() - t0));
            }
            int status = response.status();
            if (status >= 200 && status < 300) {
                return response.body();
            }
            if ((status == 429 || status == 503) && attempt < attempts) {
                long wait = backoff(attempt, response.retryAfter());
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

    /** Threads waiting for a free slot now (tests). */
    int waitingForSlot() {
        return slots.getQueueLength();
    }

    /** Waits for one of the pool's slots, at most the request timeout. */
    private void acquireSlot(String what) {
        try {
            if (!slots.tryAcquire(settings.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": all "
                        + settings.poolSize() + " Qdrant connections (QEG_QDRANT_POOL_SIZE) stayed busy for "
                        + settings.requestTimeout().toMillis() + "ms", Map.of(), null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted", Map.of(), e);
        }
    }

    /**
     * The bounded metric label of a call: the method and the path with the collection name (and a payload field
     * name) replaced, e.g. {@code POST /collections/{name}/points/scroll}.
     */
    static String operation(String method, String path) {
        StringBuilder out = new StringBuilder(method.length() + path.length() + 8).append(method).append(' ');
        int start = path.indexOf('/');
        boolean collections = false;
        boolean index = false;
        // the segments after the first '/', empty ones included (as split("/", -1) gives them)
        for (int i = 1; start >= 0; i++) {
            int from = start + 1;
            int slash = path.indexOf('/', from);
            int end = slash < 0 ? path.length() : slash;
            out.append('/');
            if (i == 2 && collections) {
                out.append("{name}");
            } else if (i == 4 && index) {
                out.append("{field}");
            } else {
                out.append(path, from, end);
            }
            if (i == 1) {
                collections = path.regionMatches(from, "collections", 0, 11) && end - from == 11;
            } else if (i == 3) {
                index = path.regionMatches(from, "index", 0, 5) && end - from == 5;
            }
            start = slash;
        }
        return out.toString();
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
    private static String message(QdrantTransport.Response response) {
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
        transport.close();
    }
}
