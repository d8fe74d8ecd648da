package io.qdrant.esgateway.adapter.out.qdrant.transport;

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
import io.qdrant.esgateway.adapter.out.qdrant.QdrantStores;

/**
 * The HTTP side of the adapter: one {@link HttpTransport} (our own blocking HTTP/1.1 client: keep-alive sockets
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
public final class QdrantClient implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(QdrantClient.class.getName());
    /**
     * Jackson with a shared pool of its parse and write buffers: the default pool keeps them per thread, and every
     * request runs on a new virtual thread, so each call allocated fresh ones (~16 KB).
     */
    public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.newConcurrentDequePool()).build());
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final int READ_ATTEMPTS = 3;

    /** A Qdrant answer other than success; converted to a {@link GatewayException} by {@link #failure}. */
    public static final class QdrantError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public final int status;
        public final String qdrantMessage;

        QdrantError(int status, String qdrantMessage) {
            super(status + " " + qdrantMessage, null, false, false);
            this.status = status;
            this.qdrantMessage = qdrantMessage;
        }
    }

    /** Waits between read attempts; tests replace it so that they do not sleep. */
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final QdrantStores.Settings settings;
    private final HttpTransport transport;
    private final String base;
    private final byte[] headers;
    private final BackendObserver observer;
    private final Slots slots;
    public volatile Sleeper sleeper = Thread::sleep;

    public QdrantClient(QdrantStores.Settings settings) {
        this(settings, BackendObserver.NONE);
    }

    public QdrantClient(QdrantStores.Settings settings, BackendObserver observer) {
        this(settings, observer, new HttpTransport(settings.url(), settings.connectTimeout(),
                settings.requestTimeout()));
    }

    public QdrantClient(QdrantStores.Settings settings, BackendObserver observer, HttpTransport transport) {
        this.settings = settings;
        this.observer = observer;
        this.slots = new Slots(settings.poolSize());
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

    public QdrantStores.Settings settings() {
        return settings;
    }

    /** Where Qdrant is, fit for messages. */
    String where() {
        return settings.display();
    }

    public static String segment(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Sends one request and returns the envelope's {@code result}. {@code what} names the operation for messages
     * ("scroll the points of [index]").
     *
     * @throws QdrantError for an answer with an error status that the caller may want to interpret (404, 409)
     */
    public JsonNode call(String method, String path, Map<String, String> query, JsonNode body, boolean idempotentRead,
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
    public interface ResultDecoder<T> {
        T decode(JsonParser parser) throws IOException;
    }

    /**
     * The same as {@link #call}, with the envelope's {@code result} read by {@code decoder} from a streaming parser —
     * no {@code JsonNode} tree for answers the adapter reads on every request. Same errors as {@link #call}.
     */
    public <T> T call(String method, String path, Map<String, String> query, JsonNode body, boolean idempotentRead,
               String what, ResultDecoder<T> decoder) {
        return call(method, path, query, body, idempotentRead, what, decoder, null);
    }

    /**
     * {@link #call(String, String, Map, JsonNode, boolean, String, ResultDecoder)} with a {@link Beside} read (null:
     * none) sent on a connection of its own right after this call's request is written and its answer read right after
     * this call's answer (see {@link Beside}).
     */
    public <T> T call(String method, String path, Map<String, String> query, JsonNode body, boolean idempotentRead,
               String what, ResultDecoder<T> decoder, Beside<?> beside) {
        return decode(answer(method, path, target(path, query), bytes(body, what), idempotentRead, what, 1, beside),
                what, decoder);
    }

    /** The envelope's {@code result} of a 2xx answer, read by {@code decoder}. */
    private static <T> T decode(byte[] answer, String what, ResultDecoder<T> decoder) {
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
        return answer(method, path, target(path, query), bytes(body, what), idempotentRead, what, 1, null);
    }

    /** The request target: the base path, {@code path} and the encoded query. */
    private String target(String path, Map<String, String> query) {
        StringBuilder uri = new StringBuilder(base).append(path);
        char sep = '?';
        for (Map.Entry<String, String> q : query.entrySet()) {
            uri.append(sep).append(q.getKey()).append('=').append(segment(q.getValue()));
            sep = '&';
        }
        return uri.toString();
    }

    /** The JSON body's bytes (null: none). */
    private static byte[] bytes(JsonNode body, String what) {
        try {
            return body == null ? null : MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": the request for Qdrant"
                    + " cannot be written: " + e.getOriginalMessage(), Map.of(), e);
        }
    }

    /**
     * Sends one request from attempt {@code first} on (retrying reads on 429/503) and returns the body of its 2xx
     * answer; the first attempt carries {@code beside} (null: none), which is always {@linkplain Beside#receive
     * received} once this attempt's request was written, whatever the attempt's outcome.
     */
    private byte[] answer(String method, String path, String target, byte[] bytes, boolean idempotentRead,
                          String what, int first, Beside<?> beside) {
        int attempts = idempotentRead ? READ_ATTEMPTS : 1;
        for (int attempt = first; ; attempt++) {
            HttpTransport.Response response;
            Beside<?> carried = attempt == first ? beside : null;
            acquireSlot(what);
            long t0 = System.nanoTime();
            String outcome = "error";
            long received = 0;
            try {
                if (carried == null) {
                    response = transport.exchange(method, target, bytes, headers, idempotentRead);
                } else {
                    HttpTransport.Sent sent = transport.send(method, target, bytes, headers, idempotentRead);
                    carried.send();
                    response = sent.answer();
                }
                outcome = Integer.toString(response.status());
                received = response.body().length;
            } catch (IOException e) {
                outcome = e instanceof HttpTransport.Timeout ? "timeout" : outcome;
                throw failed(e, what);
            } finally {
                slots.release();
                observer.called(new BackendObserver.Call("qdrant", operation(method, path), outcome,
                        bytes == null ? 0 : bytes.length, received, System.nanoTime() - t0));
                if (carried != null) {
                    carried.receive();
                }
            }
            int status = response.status();
            if (status >= 200 && status < 300) {
                return response.body();
            }
            if ((status == 429 || status == 503) && attempt < attempts) {
                pause(response, attempt, method, path, what);
                continue;
            }
            throw new QdrantError(status, message(response));
        }
    }

    /** The wait before the next attempt after a 429/503 answer to attempt {@code attempt}. */
    private void pause(HttpTransport.Response response, int attempt, String method, String path, String what) {
        long wait = backoff(attempt, response.retryAfter());
        LOG.log(Level.FINE, () -> "Qdrant answered " + response.status() + " to " + method + " " + path
                + "; retrying in " + wait + "ms");
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted", Map.of(), e);
        }
    }

    /** A failed exchange as the gateway reports it. */
    private GatewayException failed(IOException e, String what) {
        if (e instanceof HttpTransport.Timeout t) {
            if (t.connecting) {
                return new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": connecting to Qdrant"
                        + " at " + where() + " timed out after " + settings.connectTimeout().toMillis() + "ms",
                        Map.of(), e);
            }
            return new GatewayException(ErrorKind.BACKEND_TIMEOUT, "cannot " + what + ": Qdrant at " + where()
                    + " did not answer within " + settings.requestTimeout().toMillis() + "ms", Map.of(), e);
        }
        if (e instanceof ConnectException) {
            return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": cannot connect to Qdrant"
                    + " at " + where() + " (connection refused)", Map.of(), e);
        }
        if (Thread.currentThread().isInterrupted()) { // a blocked socket read or write ends so when interrupted
            return new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cannot " + what + ": interrupted", Map.of(),
                    e);
        }
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": the connection to Qdrant"
                + " at " + where() + " failed: " + e.getClass().getSimpleName(), Map.of(), e);
    }

    /**
     * A read-only call prepared to go beside another call ({@link #call(String, String, Map, JsonNode, boolean,
     * String, ResultDecoder, Beside)}): its request is written on a connection of its own right after the other call's
     * request (so that Qdrant works on both at once, with no thread of its own), and its answer's bytes are read right
     * after the other call's answer, on the same thread; {@link #result()} decodes it later. Same answers, errors and
     * retries as a call of its own.
     *
     * <p>Pool: it is sent only when one of the pool's slots is free at once (it never waits for one while the other
     * call holds its own), and gives the slot back when its answer is read; a read that was not sent (no free slot, or
     * the other call never wrote its request) is made whole, as a call of its own, by {@link #result()}.
     *
     * <p>Backend time: it is reported once its answer is read, with the time from writing its request to having read
     * its answer. That span holds only the other call's answer being read (backend time already) and the two reads'
     * bookkeeping, so the request's own time hides none of the caller's work (its answer is decoded later, as own
     * time). The other call's reported time includes this request's write.
     */
    public <T> Beside<T> beside(String method, String path, Map<String, String> query, JsonNode body, String what,
                         ResultDecoder<T> decoder) {
        return new Beside<>(method, path, target(path, query), bytes(body, what), what, decoder);
    }

    /** See {@link #beside}. Used by one thread. */
    public final class Beside<T> {
        private final String method;
        private final String path;
        private final String target;
        private final byte[] bytes;
        private final String what;
        private final ResultDecoder<T> decoder;
        /** The written request (null: not sent, or sending failed). */
        private HttpTransport.Sent sent;
        private long sentAt;
        private boolean tried;
        private HttpTransport.Response response;
        private RuntimeException failure;

        private Beside(String method, String path, String target, byte[] bytes, String what,
                       ResultDecoder<T> decoder) {
            this.method = method;
            this.path = path;
            this.target = target;
            this.bytes = bytes;
            this.what = what;
            this.decoder = decoder;
        }

        /** Writes the request if a slot is free now (once); a failed write is kept as the result's failure. */
        private void send() {
            if (tried) {
                return;
            }
            tried = true;
            if (!slots.tryAcquireNow()) {
                return;
            }
            sentAt = System.nanoTime();
            try {
                sent = transport.send(method, target, bytes, headers, true);
            } catch (IOException e) {
                slots.release();
                report(e instanceof HttpTransport.Timeout ? "timeout" : "error", 0);
                failure = failed(e, what);
            }
        }

        /** Reads the answer of a sent request (once), keeping it or the failure, and gives the slot back. */
        private void receive() {
            HttpTransport.Sent pending = sent;
            if (pending == null) {
                return;
            }
            sent = null;
            String outcome = "error";
            long received = 0;
            try {
                response = pending.answer();
                outcome = Integer.toString(response.status());
                received = response.body().length;
            } catch (IOException e) {
                outcome = e instanceof HttpTransport.Timeout ? "timeout" : outcome;
                failure = failed(e, what);
            } finally {
                slots.release();
                report(outcome, received);
            }
        }

        private void report(String outcome, long received) {
            observer.called(new BackendObserver.Call("qdrant", operation(method, path), outcome,
                    bytes == null ? 0 : bytes.length, received, System.nanoTime() - sentAt));
        }

        /**
         * The call's result (its failure thrown: a {@link QdrantError} for an error answer, as {@code call} throws
         * it); a read that was not sent is made now as a call of its own. Call once.
         */
        public T result() {
            if (sent != null) {
                receive(); // the other call did not read its answer (cannot happen through call; kept safe)
            }
            if (failure != null) {
                throw failure;
            }
            if (response == null) {
                return decode(answer(method, path, target, bytes, true, what, 1, null), what, decoder);
            }
            int status = response.status();
            if (status >= 200 && status < 300) {
                return decode(response.body(), what, decoder);
            }
            if (status == 429 || status == 503) {
                pause(response, 1, method, path, what);
                return decode(answer(method, path, target, bytes, true, what, 2, null), what, decoder);
            }
            throw new QdrantError(status, message(response));
        }
    }

    /** Threads waiting for a free slot now (tests). */
    public int waitingForSlot() {
        return slots.getQueueLength();
    }

    /** The pool's slots: a fair semaphore. */
    private static final class Slots extends Semaphore {
        private static final long serialVersionUID = 1L;

        Slots(int permits) {
            super(permits, true);
        }

        /** A slot if one is free now and no thread waits for one (fair: no barging). */
        boolean tryAcquireNow() {
            try {
                return tryAcquire(0, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
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
    public static String operation(String method, String path) {
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
    private static String message(HttpTransport.Response response) {
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
    public GatewayException failure(QdrantError e, String what) {
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

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    @Override
    public void close() {
        transport.close();
    }
}
