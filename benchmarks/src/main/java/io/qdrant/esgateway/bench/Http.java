package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One benchmark client: one persistent HTTP/1.1 connection, used by one thread at a time. For {@code http} URLs it is
 * a plain blocking socket — the request written in one piece, the answer read by its {@code Content-Length} or its
 * chunks on the same thread — so the instrument adds tens of microseconds and no thread hand-offs to what it measures
 * (the JDK {@link HttpClient} it replaced added ~0.25 ms and ~0.5 ms of CPU per request, and most of the p95, through
 * its selector thread). {@code https} URLs (engines given by URL) go through the JDK client. Only {@link #send} is
 * timed by callers; parsing and checking happen after the clock stops.
 */
public final class Http implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private final URI base;
    private final HttpClient tls;
    private Socket socket;
    private OutputStream out;
    private InputStream in;
    /** The connections to the engine's other URLs ({@link #to}); requests take turns over this one and them. */
    private java.util.List<Http> others = java.util.List.of();
    private int turn;

    /**
     * A client of one URL, or of several that answer for one engine (shared mode's replicas): then each request goes
     * to the next URL in turn, each over its own persistent connection, starting with the first.
     */
    public static Http to(java.util.List<URI> urls) {
        Http first = new Http(urls.getFirst());
        first.others = urls.subList(1, urls.size()).stream().map(Http::new).toList();
        return first;
    }

    public Http(URI base) {
        this.base = base;
        this.tls = "https".equalsIgnoreCase(base.getScheme())
                ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofMillis(CONNECT_TIMEOUT_MS)).build()
                : null;
    }

    /** A raw answer: status and body bytes (parsed later, outside the timed part). */
    public record Raw(int status, byte[] body) {
        public JsonNode json() {
            return Json.parse(body);
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** ES's {@code error.type: reason} (or the body) for messages. */
        public String error() {
            JsonNode json = json();
            JsonNode error = json.path("error");
            if (error.isObject()) {
                return status + " " + error.path("type").asText() + ": " + error.path("reason").asText();
            }
            String text = new String(body, StandardCharsets.UTF_8);
            return status + " " + (text.length() > 300 ? text.substring(0, 300) + "…" : text);
        }
    }

    public Raw send(Request request) {
        return send(request.method(), request.path(), request.body(), request.contentType());
    }

    public Raw send(String method, String path, String body, String contentType) {
        return sendBytes(method, path, body == null ? null : body.getBytes(StandardCharsets.UTF_8), contentType);
    }

    /** As {@link #send(String, String, String, String)}, with the body already encoded (a bulk body built ahead). */
    public Raw sendBytes(String method, String path, byte[] body, String contentType) {
        if (!others.isEmpty()) {
            int t = turn;
            turn = (turn + 1) % (others.size() + 1);
            if (t > 0) {
                return others.get(t - 1).sendOwn(method, path, body, contentType);
            }
        }
        return sendOwn(method, path, body, contentType);
    }

    private Raw sendOwn(String method, String path, byte[] body, String contentType) {
        if (tls != null) {
            return sendTls(method, path, body, contentType);
        }
        byte[] request = request(method, path, body, contentType);
        boolean reused = socket != null;
        try {
            return exchange(request, method);
        } catch (StaleConnection e) {
            // the engine closed a connection that sat idle (e.g. while other engines ran): it never saw this request
            disconnect();
            if (!reused) {
                throw new UncheckedIOException(method + " " + base + path + " failed: " + e.getMessage(), e);
            }
            try {
                return exchange(request, method);
            } catch (IOException again) {
                disconnect();
                throw new UncheckedIOException(method + " " + base + path + " failed: " + again.getMessage(), again);
            }
        } catch (IOException e) {
            disconnect();
            throw new UncheckedIOException(method + " " + base + path + " failed: " + e.getMessage(), e);
        }
    }

    /** The connection ended before the first byte of an answer. */
    private static final class StaleConnection extends IOException {
        StaleConnection(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private byte[] request(String method, String path, byte[] content, String contentType) {
        StringBuilder head = new StringBuilder(128).append(method).append(' ').append(base.getRawPath() == null
                ? "" : stripSlash(base.getRawPath())).append(path).append(" HTTP/1.1\r\nHost: ").append(base.getHost())
                .append(':').append(port()).append("\r\nAccept: application/json\r\n");
        if (content != null) {
            head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(content.length)
                    .append("\r\n");
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            head.append("Content-Length: 0\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (content == null) {
            return h;
        }
        byte[] all = new byte[h.length + content.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(content, 0, all, h.length, content.length);
        return all;
    }

    private static String stripSlash(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private int port() {
        return base.getPort() > 0 ? base.getPort() : 80;
    }

    private Raw exchange(byte[] request, String method) throws IOException {
        if (socket == null) {
            connect();
        }
        try {
            out.write(request);
            out.flush();
        } catch (IOException e) {
            throw new StaleConnection("the connection was closed: " + e.getMessage(), e);
        }
        int first;
        try {
            first = in.read();
        } catch (java.net.SocketException e) {
            throw new StaleConnection("the connection was reset: " + e.getMessage(), e);
        }
        if (first < 0) {
            throw new StaleConnection("the connection was closed before an answer", null);
        }
        String statusLine = (char) first + line();
        // HTTP/1.1 200 OK
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.x answer: " + abbreviate(statusLine));
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close")
                        || (close && !value.equalsIgnoreCase("keep-alive"));
                default -> {
                    // not needed
                }
            }
        }
        byte[] body;
        if (method.equals("HEAD") || status == 204 || status == 304 || (status >= 100 && status < 200)) {
            body = new byte[0];
        } else if (chunked) {
            body = chunks();
        } else if (length >= 0) {
            body = in.readNBytes(Math.toIntExact(length));
            if (body.length < length) {
                throw new EOFException("the answer ended after " + body.length + " of " + length + " bytes");
            }
        } else {
            body = in.readAllBytes();
            close = true;
        }
        if (close) {
            disconnect();
        }
        return new Raw(status, body);
    }

    private byte[] chunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            int semicolon = size.indexOf(';');
            int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (n == 0) {
                while (!line().isEmpty()) {
                    // trailers
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(n);
            if (chunk.length < n) {
                throw new EOFException("a chunk ended after " + chunk.length + " of " + n + " bytes");
            }
            body.write(chunk);
            line();
        }
    }

    /** One header line without its CRLF. */
    private String line() throws IOException {
        StringBuilder s = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the answer ended inside its head");
            }
            if (c != '\r') {
                s.append((char) c);
            }
        }
        return s.toString();
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(base.getHost(), port()), CONNECT_TIMEOUT_MS);
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) TIMEOUT.toMillis());
            socket = s;
            out = s.getOutputStream();
            in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
        out = null;
        in = null;
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    private Raw sendTls(String method, String path, byte[] body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Accept", "application/json");
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        }
        try {
            HttpResponse<byte[]> response = tls.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Raw(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + base + path + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    /** Sends and insists on a 2xx answer (set-up requests: anything else stops the run with the engine's error). */
    public JsonNode ok(String method, String path, String body) {
        Raw raw = send(method, path, body, "application/json");
        if (!raw.ok()) {
            throw new IllegalStateException(method + " " + path + " answered " + raw.error());
        }
        return raw.json();
    }

    public URI base() {
        return base;
    }

    /** Ends the connection (one client per cell: they would pile up otherwise). */
    @Override
    public void close() {
        others.forEach(Http::close);
        disconnect();
        if (tls != null) {
            tls.close();
        }
    }
}
