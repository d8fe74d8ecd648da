package io.qdrant.esgateway.adapter.in.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The single Helidon handler in front of the {@link Router}: reads the URL parameters and the body (within the size
 * limit), dispatches, renders the answer or the ES-shaped error, and times every request per API and status.
 */
final class EsHttpHandler implements Handler {
    private static final Logger LOG = Logger.getLogger(EsHttpHandler.class.getName());
    static final String PRODUCT_HEADER = "X-Elastic-Product";
    private static final String COMPATIBLE_JSON = "application/vnd.elasticsearch+json;compatible-with=8";
    /** The headers every answer carries, made once (Helidon's cached header values need no per-request copy). */
    static final Header PRODUCT = HeaderValues.createCached(PRODUCT_HEADER, "Elasticsearch");
    private static final Header JSON_TYPE = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "application/json");
    private static final Header COMPATIBLE_TYPE = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, COMPATIBLE_JSON);
    private static final Set<String> BODY_TYPES = Set.of("application/json", "application/x-ndjson",
            "application/vnd.elasticsearch+json", "application/vnd.elasticsearch+x-ndjson");

    private final Router router;
    private final JsonCodec codec;
    private final long maxContentLength;
    private final MeterRegistry registry;
    private final GatewayOverheadTimer ownTime;
    private final Map<TimerKey, Timer> requestTimers = new java.util.concurrent.ConcurrentHashMap<>();
    /** Null when security is off. */
    private final AccessControl access;

    private final Admission admission;

    EsHttpHandler(Router router, JsonCodec codec, long maxContentLength, MeterRegistry registry, Admission admission) {
        this(router, codec, maxContentLength, registry, admission, null);
    }

    EsHttpHandler(Router router, JsonCodec codec, long maxContentLength, MeterRegistry registry, Admission admission,
                  AccessControl access) {
        this.access = access;
        this.admission = admission;
        this.router = router;
        this.codec = codec;
        this.maxContentLength = maxContentLength;
        this.registry = registry;
        this.ownTime = new GatewayOverheadTimer(registry);
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        try (RequestBackendTime backend = RequestBackendTime.open()) {
            handle(req, res, backend);
        }
    }

    private void handle(ServerRequest req, ServerResponse res, RequestBackendTime backend) {
        long start = backend.start();
        String method = req.prologue().method().text();
        String rawPath = req.path().rawPath();
        String api = "unknown";
        boolean pretty = false;
        String filterPath = null;
        String allow = null;
        Throwable failure = null;
        EsResponse response;
        try {
            Map<String, String> params = parseQuery(req.query().rawValue());
            pretty = params.containsKey("pretty") && !"false".equals(params.get("pretty"));
            filterPath = params.get("filter_path");
            Router.Resolution resolution = router.resolve(method, rawPath);
            io.qdrant.esgateway.domain.security.Authentication caller = access == null ? null
                    : access.authenticate(req, resolution, rawPath);
            response = switch (resolution) {
                case Router.NoRoute none -> {
                    allow = none.allow();
                    yield none.allow() == null && none.message().startsWith("no handler found")
                            ? ErrorBodies.noHandler(none.message()) : ErrorBodies.simple(none.status(), none.message());
                }
                case Router.Matched matched -> {
                    api = matched.route().api();
                    try (Admission.Ticket turn = admission.enter(method, rawPath)) {
                        yield caller == null ? dispatch(req, matched, method, rawPath, params)
                                : ScopedValue.where(AccessControl.CALLER, caller)
                                .where(ItemAccess.SECURITY, access.security())
                                .where(ContextOwners.CURRENT, access.owners())
                                .call(() -> dispatch(req, matched, method, rawPath, params));
                    }
                }
            };
        } catch (GatewayException e) {
            response = ErrorBodies.of(e);
            failure = e;
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "request " + method + " " + rawPath + " failed", e);
            response = ErrorBodies.ofBug(e);
            failure = e;
        } catch (StackOverflowError e) {
            // a body nested deeper than a recursive reader can walk, though within the parser's limit
            GatewayException tooDeep = new GatewayException(ErrorKind.ILLEGAL_ARGUMENT,
                    "the request body is nested too deeply to be processed");
            response = ErrorBodies.of(tooDeep);
            failure = tooDeep;
        }
        if (failure != null && ErrorTrace.wanted(parseQuerySafely(req))) {
            response = ErrorTrace.add(response, failure);
        }
        if (filterPath != null && !method.equals("HEAD")) {
            response = filtered(response, filterPath);
        }
        if (allow != null) {
            res.header(HeaderNames.ALLOW, allow);
        }
        send(req, res, response, pretty, method.equals("HEAD"));
        requestTimer(api, method, response.status()).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        long end = System.nanoTime();
        ownTime.timer(api).record(end - start - backend.wallNanos(end), TimeUnit.NANOSECONDS);
    }

    /** The timer {@code es.requests} of an api, method and status (registered once, then reused). */
    private Timer requestTimer(String api, String method, int status) {
        return requestTimers.computeIfAbsent(new TimerKey(api, method, status),
                k -> Timer.builder("es.requests").description("Elasticsearch API requests by API, method and status")
                        .tag("api", api).tag("method", method).tag("status", Integer.toString(status))
                        .register(registry));
    }

    private record TimerKey(String api, String method, int status) {
    }

    private EsResponse dispatch(ServerRequest req, Router.Matched matched, String method, String rawPath,
                                Map<String, String> params) {
        Route route = matched.route();
        Router.checkParams(route, rawPath, params.keySet());
        Optional<String> contentType = req.headers().first(HeaderNames.CONTENT_TYPE);
        byte[] body = readBody(req);
        if (body.length > 0) {
            if (contentType.isPresent() && !BODY_TYPES.contains(mediaType(contentType.get()))) {
                return ErrorBodies.simple(406, "Content-Type header [" + contentType.get() + "] is not supported");
            }
            if (!route.takesBody()) {
                throw GatewayException.illegalArgument("request [" + method + " " + rawPath
                        + "] does not support having a body");
            }
        }
        Map<String, String> pathParams = matched.pathParams();
        if (access != null && AccessControl.CALLER.isBound()) {
            pathParams = access.authorize(route, pathParams, params, body);
        }
        EsRequest request = new EsRequest(method, rawPath, pathParams, params, body, codec);
        if (route.api().startsWith("nodes.")) {
            request.withLocalAddress(req.localPeer().host() + ":" + req.localPeer().port());
        }
        if (body.length > 0 && Admission.WRITE_APIS.contains(route.api())) {
            try (Admission.Ticket bytes = admission.holdWriteBytes(body.length)) {
                return route.handler().handle(request);
            }
        }
        return route.handler().handle(request);
    }

    private byte[] readBody(ServerRequest req) {
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        Optional<String> declared = req.headers().first(HeaderNames.CONTENT_LENGTH);
        long length = -1;
        if (declared.isPresent()) {
            length = Long.parseLong(declared.get().trim());
            if (length > maxContentLength) {
                throw tooLong(length);
            }
        }
        try (InputStream in = req.content().inputStream()) {
            if (length >= 0 && length <= 64L << 20) {
                // the declared length read into one array of that size (a search body is a few hundred bytes: no
                // 64 KiB copy buffer per request); a body longer than declared is not one Helidon hands over
                byte[] body = new byte[(int) length];
                int filled = 0;
                int n;
                while (filled < body.length && (n = in.read(body, filled, body.length - filled)) > 0) {
                    filled += n;
                }
                if (filled < body.length) {
                    return java.util.Arrays.copyOf(body, filled); // ended early: what came, as before
                }
                int next = in.read();
                return next < 0 ? body : readRest(in, body, next);
            }
            return readRest(in, new byte[0], -1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body: {@code head} and the byte {@code next} (when not -1) already read, then the rest of {@code in}. */
    private byte[] readRest(InputStream in, byte[] head, int next) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(32, head.length + 1));
        out.write(head);
        long total = head.length;
        if (next >= 0) {
            out.write(next);
            total++;
        }
        byte[] buffer = new byte[8 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            total += n;
            if (total > maxContentLength) {
                throw tooLong(total);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private GatewayException tooLong(long length) {
        return new GatewayException(ErrorKind.CONTENT_TOO_LONG, "request body of " + length
                + (length > maxContentLength ? "+" : "") + " bytes is larger than http.max_content_length ["
                + maxContentLength + " bytes]");
    }

    /**
     * The answer with {@code filter_path} applied ({@link FilterPath}); error answers are left whole, as Elasticsearch
     * does. Only requests with the parameter pay for it.
     */
    private EsResponse filtered(EsResponse response, String filterPath) {
        Optional<FilterPath> filter = FilterPath.parse(filterPath);
        if (filter.isEmpty() || response.json() == null && response.compactJson() == null) {
            return response;
        }
        JsonValue body = response.json() != null ? response.json() : codec.parse(response.compactJson());
        if (response.status() >= 400 && body instanceof JsonValue.JsonObject o && o.members().containsKey("error")) {
            return response;
        }
        return filter.get().apply(body).map(b -> EsResponse.json(response.status(), b))
                .orElseGet(() -> EsResponse.text(response.status(), "", "application/json"));
    }

    private void send(ServerRequest req, ServerResponse res, EsResponse response, boolean pretty, boolean head) {
        res.status(Status.create(response.status()));
        if (response.status() == 403) {
            // Elasticsearch 8.15 sends no product header with a 403 (an index block's refusal, checked against it)
            res.headers().remove(PRODUCT.headerName());
        } else {
            res.header(PRODUCT);
        }
        if (response.status() == 401) {
            res.header(AccessControl.CHALLENGE);
        }
        if (response.json() != null || response.compactJson() != null) {
            res.header(wantsCompatible(req) ? COMPATIBLE_TYPE : JSON_TYPE);
            byte[] bytes = response.json() != null ? codec.write(response.json(), pretty) : response.compactJson();
            if (head) {
                res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(bytes.length));
                res.send();
            } else {
                res.send(bytes);
            }
        } else if (response.text() != null && !head) {
            res.header(HeaderNames.CONTENT_TYPE, response.contentType());
            res.send(response.text().getBytes(StandardCharsets.UTF_8));
        } else {
            res.send();
        }
    }

    private static boolean wantsCompatible(ServerRequest req) {
        return req.headers().first(HeaderNames.ACCEPT).map(a -> a.contains("compatible-with")).orElse(false)
                || req.headers().first(HeaderNames.CONTENT_TYPE).map(a -> a.contains("compatible-with")).orElse(false);
    }

    private static String mediaType(String contentType) {
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    /** The URL parameters, or none when they cannot be read (the failure being answered may be that). */
    private static Map<String, String> parseQuerySafely(ServerRequest req) {
        try {
            return parseQuery(req.query().rawValue());
        } catch (GatewayException e) {
            return Map.of();
        }
    }

    static Map<String, String> parseQuery(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.putIfAbsent(key, value);
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("invalid percent-encoding in URL parameter [" + s + "]");
        }
    }
}
