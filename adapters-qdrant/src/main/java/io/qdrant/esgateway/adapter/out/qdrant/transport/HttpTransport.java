package io.qdrant.esgateway.adapter.out.qdrant.transport;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A lean blocking HTTP/1.1 client for one Qdrant URL: the calling thread writes the request and reads the answer on a
 * pooled keep-alive socket itself — no selector thread, no hand-offs, no per-call filter chains.
 *
 * <ul>
 *   <li><b>Pool</b>: idle connections are kept (most recently used first) and reused; the caller ({@link QdrantClient})
 *       bounds the exchanges in flight to the pool size, so there are never more connections than that. A connection
 *       idle for longer than {@link #MAX_IDLE} is closed instead of reused: servers close idle keep-alive connections
 *       after a while (actix-web, which serves Qdrant's REST API, after 5 s by default), and a request written into a
 *       connection the server is closing would fail.</li>
 *   <li><b>Request</b>: head and body in one buffer, one write, {@code TCP_NODELAY} (no Nagle delay).</li>
 *   <li><b>Answer</b>: status line, headers, then a body delimited by {@code Content-Length}, by chunked transfer
 *       encoding, or (neither) by the end of the connection; a {@code 1xx} interim answer is skipped. The connection
 *       goes back to the pool only after a complete answer without {@code Connection: close}.</li>
 *   <li><b>Timeouts</b>: connecting is bounded by the connect timeout ({@link Timeout#connecting}); the whole exchange
 *       after that — writing, waiting, reading the body — by the request timeout, as a deadline: every blocking read
 *       waits at most the time left, and a large request's write is cut at the deadline by a watchdog. A timeout
 *       closes the connection. Nothing here can hang.</li>
 *   <li><b>Stale connections</b>: when a <em>reused</em> connection fails before a single byte of the answer arrived
 *       (the write failed, or the connection was reset or closed while waiting for the status line), the server most
 *       likely closed it while it was idle, and the exchange is tried once more on a fresh socket — but only for
 *       idempotent reads ({@code retryStale}). A write is not retried: the server might have received and applied it
 *       before the connection broke, and applying it again after a concurrent write to the same points could undo
 *       that one. The caller reports such a write as a failed call, as it did with the JDK client.</li>
 *   <li><b>https</b>: an {@code https} URL gets a TLS socket from the default {@link SSLSocketFactory} (the JVM's
 *       trust store), with the host name verified as the JDK's HTTP clients do.</li>
 * </ul>
 *
 * <p>Thread-safe: connections are taken from and returned to the pool under its lock; one exchange uses one
 * connection on one thread.
 */
public final class HttpTransport implements AutoCloseable {
    /** How long an idle connection may be reused. */
    static final Duration MAX_IDLE = Duration.ofSeconds(2);
    private static final int BUFFER = 16 * 1024;
    /** Requests larger than this are written under {@link #WATCHDOG} (smaller ones fit the socket buffers). */
    static final int WATCHED_WRITE = 64 * 1024;
    /** Closes the socket of a large write still blocked at its deadline: one daemon thread for the process. */
    private static final java.util.concurrent.ScheduledThreadPoolExecutor WATCHDOG = watchdog();
    private static final byte[] CRLF = {'\r', '\n'};
    private static final String[] KNOWN_HEADERS = {"content-length", "transfer-encoding", "connection", "retry-after"};

    /** A complete answer. {@code retryAfter} is the {@code Retry-After} header, if any. */
    public record Response(int status, byte[] body, Optional<String> retryAfter) {
    }

    /** No connection or no (complete) answer within the connect or request timeout. */
    static final class Timeout extends IOException {
        private static final long serialVersionUID = 1L;
        final boolean connecting;

        Timeout(boolean connecting, String message) {
            super(message);
            this.connecting = connecting;
        }
    }

    /** The server closed or reset a reused connection before any byte of the answer: may be retried. */
    private static final class Stale extends IOException {
        private static final long serialVersionUID = 1L;

        Stale(IOException cause) {
            super(cause.toString(), cause);
        }
    }

    private final String host;
    private final int port;
    private final boolean tls;
    private final SSLSocketFactory tlsSockets;
    private final byte[] hostHeader;
    private final long connectTimeoutMillis;
    private final long requestTimeoutNanos;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private boolean closed;
    private long opened;

    public HttpTransport(URI url, Duration connectTimeout, Duration requestTimeout) {
        this(url, connectTimeout, requestTimeout, null);
    }

    /** With {@code tlsSockets} (tests: a factory trusting their own certificate); null: the JVM's default. */
    public HttpTransport(URI url, Duration connectTimeout, Duration requestTimeout, SSLSocketFactory tlsSockets) {
        this.tls = url.getScheme().toLowerCase(Locale.ROOT).equals("https");
        this.host = url.getHost();
        this.port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
        this.tlsSockets = tls ? tlsSockets != null ? tlsSockets : (SSLSocketFactory) SSLSocketFactory.getDefault()
                : null;
        boolean defaultPort = url.getPort() < 0;
        String hostText = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        this.hostHeader = ("Host: " + hostText + (defaultPort ? "" : ":" + port) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.connectTimeoutMillis = Math.max(1, connectTimeout.toMillis());
        this.requestTimeoutNanos = requestTimeout.toNanos();
    }

    /**
     * One exchange: {@code method} {@code target} (path and query, already encoded) with the JSON {@code body} (null:
     * none) and the extra header lines {@code headers} (each ending with CRLF, ASCII).
     *
     * @param retryStale whether a failure of a reused connection before any byte of the answer is retried once on a
     *                   fresh connection (idempotent reads only)
     * @throws Timeout    when connecting or the exchange took too long
     * @throws IOException when the connection failed (refused, reset, a malformed answer)
     */
    public Response exchange(String method, String target, byte[] body, byte[] headers, boolean retryStale)
            throws IOException {
        return send(method, target, body, headers, retryStale).answer();
    }

    /**
     * The first half of an exchange: the request written on a connection of its own, its answer left to
     * {@link Sent#answer()} — so that the server works on it while the caller reads another answer. Same parameters,
     * pool and stale-connection rule as {@link #exchange}; the request timeout runs from now. The caller must call
     * {@link Sent#answer()} exactly once (it returns the connection to the pool or closes it).
     */
    public Sent send(String method, String target, byte[] body, byte[] headers, boolean retryStale) throws IOException {
        byte[] request = request(method, target, body, headers);
        Connection reused = take();
        if (reused != null) {
            try {
                reused.begin(request, true);
                return new Sent(reused, request, method, true, retryStale);
            } catch (Stale stale) {
                if (!retryStale) {
                    throw (IOException) stale.getCause();
                }
            }
        }
        Connection fresh = connect();
        try {
            fresh.begin(request, false);
        } catch (Stale cannotBe) {
            throw (IOException) cannotBe.getCause();
        }
        return new Sent(fresh, request, method, false, retryStale);
    }

    /** A request written by {@link #send}, its answer not read yet. */
    public final class Sent {
        private final Connection connection;
        private final byte[] request;
        private final String method;
        private final boolean reused;
        private final boolean retryStale;

        private Sent(Connection connection, byte[] request, String method, boolean reused, boolean retryStale) {
            this.connection = connection;
            this.request = request;
            this.method = method;
            this.reused = reused;
            this.retryStale = retryStale;
        }

        /**
         * Reads the answer (blocking until it is there, at most until the request's deadline); a reused connection
         * that failed before any byte of it is retried once on a fresh one when {@code retryStale}, as
         * {@link #exchange} does. Call once.
         */
        public Response answer() throws IOException {
            try {
                return connection.finish(method, reused);
            } catch (Stale stale) {
                if (!retryStale) {
                    throw (IOException) stale.getCause();
                }
            }
            Connection fresh = connect();
            try {
                return fresh.exchange(request, method, false);
            } catch (Stale cannotBe) {
                throw (IOException) cannotBe.getCause();
            }
        }
    }

    /** Connections opened so far (tests: keep-alive reuse). */
    public synchronized long opened() {
        return opened;
    }

    /** Idle connections in the pool now (tests). */
    synchronized int idleCount() {
        return idle.size();
    }

    private byte[] request(String method, String target, byte[] body, byte[] headers) {
        byte[] line = (method + " " + target + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] length = body == null && (method.equals("GET") || method.equals("HEAD") || method.equals("DELETE"))
                ? new byte[0]
                : ("Content-Length: " + (body == null ? 0 : body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] type = body == null ? new byte[0] : "Content-Type: application/json\r\n".getBytes(StandardCharsets.US_ASCII);
        byte[] accept = "Accept: application/json\r\n".getBytes(StandardCharsets.US_ASCII);
        int size = line.length + hostHeader.length + accept.length + type.length + length.length + headers.length + 2
                + (body == null ? 0 : body.length);
        byte[] out = new byte[size];
        int at = 0;
        for (byte[] part : new byte[][] {line, hostHeader, accept, type, length, headers, CRLF}) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        if (body != null) {
            System.arraycopy(body, 0, out, at, body.length);
        }
        return out;
    }

    private Connection take() {
        long now = System.nanoTime();
        while (true) {
            Connection c;
            synchronized (this) {
                c = idle.pollFirst();
            }
            if (c == null) {
                return null;
            }
            if (now - c.idleSince <= MAX_IDLE.toNanos()) {
                return c;
            }
            c.close();
        }
    }

    private void release(Connection c) {
        synchronized (this) {
            if (!closed) {
                idle.addFirst(c);
                return;
            }
        }
        c.close();
    }

    private Connection connect() throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, connectTimeoutMillis));
            if (tls) {
                SSLSocket secure = (SSLSocket) tlsSockets.createSocket(socket, host, port, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secure.setSSLParameters(parameters);
                secure.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, requestTimeoutNanos / 1_000_000)));
                secure.startHandshake();
                socket = secure;
            }
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new Timeout(true, "connecting timed out");
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
        synchronized (this) {
            opened++;
        }
        return new Connection(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        Connection[] all;
        synchronized (this) {
            closed = true;
            all = idle.toArray(Connection[]::new);
            idle.clear();
        }
        for (Connection c : all) {
            c.close();
        }
    }

    /** One socket: reads through its own buffer; used by one exchange at a time. */
    private final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final byte[] buffer = new byte[BUFFER];
        private int pos;
        private int limit;
        private long deadline;
        private long idleSince;
        private long received;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        public Response exchange(byte[] request, String method, boolean reused) throws IOException {
            begin(request, reused);
            return finish(method, reused);
        }

        /** Starts the exchange's deadline and writes the request; a failure closes the connection. */
        void begin(byte[] request, boolean reused) throws IOException {
            deadline = System.nanoTime() + requestTimeoutNanos;
            received = 0;
            boolean written = false;
            try {
                write(request, reused);
                written = true;
            } finally {
                if (!written) {
                    close();
                }
            }
        }

        /** Reads the answer to the request {@link #begin} wrote; then pools the connection or closes it. */
        Response finish(String method, boolean reused) throws IOException {
            boolean keep = false;
            try {
                Response response;
                boolean keepAlive;
                while (true) {
                    String status = statusLine(reused);
                    Head head = head(status);
                    if (head.status >= 100 && head.status < 200) {
                        continue; // an interim answer: the real one follows
                    }
                    byte[] body = method.equals("HEAD") || head.status == 204 || head.status == 304 ? new byte[0]
                            : head.chunked ? chunked() : head.length >= 0 ? exactly(head.length) : untilEnd();
                    response = new Response(head.status, body, Optional.ofNullable(head.retryAfter));
                    keepAlive = head.keepAlive && (head.chunked || head.length >= 0 || body.length == 0
                            && (method.equals("HEAD") || head.status == 204 || head.status == 304));
                    break;
                }
                keep = keepAlive;
                return response;
            } catch (SocketTimeoutException e) {
                throw new Timeout(false, "no answer in time");
            } finally {
                if (keep) {
                    idleSince = System.nanoTime();
                    release(this);
                } else {
                    close();
                }
            }
        }

        /**
         * Writes the request. A socket write has no timeout of its own: it blocks while the server reads nothing and
         * the buffers are full, which only a large body can cause. So a request larger than {@link #WATCHED_WRITE}
         * is written under a watchdog that closes the socket at the deadline, and the write then fails as a
         * {@link Timeout}.
         */
        private void write(byte[] request, boolean reused) throws IOException {
            java.util.concurrent.ScheduledFuture<?> watchdog = null;
            java.util.concurrent.atomic.AtomicBoolean fired = new java.util.concurrent.atomic.AtomicBoolean();
            if (request.length > WATCHED_WRITE) {
                watchdog = WATCHDOG.schedule(() -> {
                    fired.set(true);
                    close();
                }, Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            }
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                if (fired.get()) {
                    throw new Timeout(false, "the request could not be written in time");
                }
                throw reused ? new Stale(e) : e;
            } finally {
                if (watchdog != null) {
                    watchdog.cancel(false);
                }
            }
            if (fired.get()) {
                throw new Timeout(false, "the request could not be written in time");
            }
        }

        /** The status line; on a reused connection, its failure before any byte is {@link Stale}. */
        private String statusLine(boolean reused) throws IOException {
            try {
                return line();
            } catch (SocketTimeoutException | Timeout e) {
                throw e;
            } catch (IOException e) {
                throw reused && received == 0 ? new Stale(e) : e;
            }
        }

        private record Head(int status, long length, boolean chunked, boolean keepAlive, String retryAfter) {
        }

        private Head head(String statusLine) throws IOException {
            // HTTP/1.1 200 OK
            if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
                throw new IOException("not an HTTP/1.x answer: " + abbreviate(statusLine));
            }
            int status;
            try {
                status = Integer.parseInt(statusLine.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IOException("not an HTTP status line: " + abbreviate(statusLine));
            }
            boolean keepAlive = statusLine.charAt(7) == '1';
            long length = -1;
            boolean chunked = false;
            String retryAfter = null;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String value = header.substring(colon + 1).trim();
                switch (name(header, colon)) {
                    case "content-length" -> {
                        try {
                            length = Long.parseLong(value);
                        } catch (NumberFormatException e) {
                            throw new IOException("a malformed Content-Length: " + abbreviate(value));
                        }
                    }
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
                    case "connection" -> {
                        String v = value.toLowerCase(Locale.ROOT);
                        if (v.contains("close")) {
                            keepAlive = false;
                        } else if (v.contains("keep-alive")) {
                            keepAlive = true;
                        }
                    }
                    case "retry-after" -> retryAfter = value;
                    default -> {
                        // not needed
                    }
                }
            }
            return new Head(status, length, chunked, keepAlive, retryAfter);
        }

        /** The header's name in lower case: the few this client reads without a copy, others as they are. */
        private static String name(String header, int colon) {
            for (String known : KNOWN_HEADERS) {
                if (colon == known.length() && header.regionMatches(true, 0, known, 0, colon)) {
                    return known;
                }
            }
            return header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        }

        private byte[] exactly(long length) throws IOException {
            if (length > Integer.MAX_VALUE - 16) {
                throw new IOException("an answer of " + length + " bytes is too large");
            }
            byte[] body = new byte[(int) length];
            int at = 0;
            while (at < body.length) {
                if (pos == limit && !fill()) {
                    throw new EOFException("the answer ended after " + at + " of " + length + " bytes");
                }
                int n = Math.min(limit - pos, body.length - at);
                System.arraycopy(buffer, pos, body, at, n);
                pos += n;
                at += n;
            }
            return body;
        }

        private byte[] chunked() throws IOException {
            byte[] body = new byte[BUFFER];
            int size = 0;
            while (true) {
                String sizeLine = line();
                int semi = sizeLine.indexOf(';');
                long chunk;
                try {
                    chunk = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
                } catch (NumberFormatException e) {
                    throw new IOException("a malformed chunk size: " + abbreviate(sizeLine));
                }
                if (chunk == 0) {
                    while (!line().isEmpty()) {
                        // trailers: ignored
                    }
                    return Arrays.copyOf(body, size);
                }
                if (chunk < 0 || size + chunk > Integer.MAX_VALUE - 16) {
                    throw new IOException("a chunk of " + chunk + " bytes is too large");
                }
                if (size + chunk > body.length) {
                    body = Arrays.copyOf(body, (int) Math.max(size + chunk, Math.min(Integer.MAX_VALUE - 16L,
                            body.length * 2L)));
                }
                byte[] part = exactly(chunk);
                System.arraycopy(part, 0, body, size, part.length);
                size += part.length;
                if (!line().isEmpty()) {
                    throw new IOException("a chunk is not followed by CRLF");
                }
            }
        }

        private byte[] untilEnd() throws IOException {
            byte[] body = new byte[BUFFER];
            int size = 0;
            while (pos < limit || fill()) {
                int n = limit - pos;
                if (size + n > body.length) {
                    body = Arrays.copyOf(body, Math.max(size + n, body.length * 2));
                }
                System.arraycopy(buffer, pos, body, size, n);
                size += n;
                pos = limit;
            }
            return Arrays.copyOf(body, size);
        }

        /** One header line without its CRLF (a bare LF is accepted), ISO-8859-1. */
        private String line() throws IOException {
            StringBuilder longer = null;
            while (true) {
                if (pos == limit && !fill()) {
                    throw new EOFException(received == 0 ? "the connection was closed before an answer"
                            : "the answer ended in its head");
                }
                int start = pos;
                while (pos < limit && buffer[pos] != '\n') {
                    pos++;
                }
                if (pos == limit) { // the line goes on in the next read
                    if (longer == null) {
                        longer = new StringBuilder(2 * (limit - start) + 16);
                    }
                    longer.append(new String(buffer, start, limit - start, StandardCharsets.ISO_8859_1));
                    if (longer.length() > 64 * 1024) {
                        throw new IOException("an answer's header line is longer than 64 KiB");
                    }
                    continue;
                }
                int end = pos++;
                String tail = new String(buffer, start, end - start, StandardCharsets.ISO_8859_1);
                String line = longer == null ? tail : longer.append(tail).toString();
                return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            }
        }

        /** Reads more into the buffer, waiting at most until the deadline; false at the end of the stream. */
        private boolean fill() throws IOException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new Timeout(false, "no answer in time");
            }
            socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
            int n = in.read(buffer, 0, buffer.length);
            if (n < 0) {
                return false;
            }
            pos = 0;
            limit = n;
            received += n;
            return true;
        }

        void close() {
            closeQuietly(socket);
        }
    }

    private static java.util.concurrent.ScheduledThreadPoolExecutor watchdog() {
        java.util.concurrent.ScheduledThreadPoolExecutor pool = new java.util.concurrent.ScheduledThreadPoolExecutor(1,
                r -> Thread.ofPlatform().daemon().name("qdrant-write-watchdog").unstarted(r));
        pool.setRemoveOnCancelPolicy(true);
        return pool;
    }

    private static String abbreviate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "…" : s;
    }
}
