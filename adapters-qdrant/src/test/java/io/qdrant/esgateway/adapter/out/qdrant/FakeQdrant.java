package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A small stateful stand-in for a Qdrant 1.19 server (test scope), on loopback, implementing the endpoints the
 * adapter uses with Qdrant's documented semantics (guide §2–§9): collections, payload indexes, batch upsert/delete,
 * retrieve, scroll by point id with {@code with_payload} include lists, exact count, dense-vector queries
 * ({@link FakeQdrantQuery}), {@code facet}, {@code order_by} (scroll and the query API: repeats per value, points
 * without the key left out, ties by id, {@code start_from}, query {@code offset}), and the filter language
 * (must/should/must_not/min_should, match value/any/except/prefix, range, is_empty, is_null, has_id, has_vector,
 * nested filters; quoted path segments, {@code a[].b}, one level of array flattening).
 *
 * <p>Every request body it receives and every response body it sends is checked against {@code openapi.json}
 * ({@link OpenApiValidator}); a violation fails the test ({@link #violations}). Its filter semantics are checked
 * against the shared example cases ({@code QdrantFakeAgainstExamplesTest}). Requests are recorded for request-count
 * assertions, and failures can be injected per path.
 */
public final class FakeQdrant implements AutoCloseable {
    public static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public record Request(String method, String path, Map<String, String> query, JsonNode body, Map<String, List<String>> headers) {
    }

    /** An injected answer: status and body text, used once for a request whose path ends with the suffix. */
    record Injected(String method, String pathSuffix, int status, String body) {
    }

    /** What an injected fault does to a request it matches. */
    public enum Fault {
        /** Answers 500 without applying the request. */
        STATUS_500,
        /** Answers 503 without applying the request. */
        STATUS_503,
        /** Waits {@code millis} before handling the request (longer than the client's timeout: a timeout). */
        DELAY,
        /** Closes the connection without an answer and without applying the request. */
        RESET,
        /** Applies the request, then sends half of its answer and closes the connection. */
        TRUNCATE
    }

    /**
     * A fault for the next {@code times} requests of {@code method} ({@code *} for any) whose path contains
     * {@code pathPart}, or for each such request with probability {@code chance} (then {@code times} is a cap).
     */
    record FaultRule(String method, String pathPart, Fault fault, long millis, double chance,
                     java.util.concurrent.atomic.AtomicInteger remaining) {
        boolean matches(String m, String path, java.util.random.RandomGenerator random) {
            return (method.equals("*") || method.equals(m)) && path.contains(pathPart) && remaining.get() > 0
                    && (chance >= 1 || random.nextDouble() < chance) && remaining.getAndDecrement() > 0;
        }
    }

    private final List<FaultRule> faults = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger faultsInjected = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.random.RandomGenerator faultRandom = new java.util.Random(26);

    /** Injects {@code fault} into the next {@code times} matching requests (see {@link FaultRule}). */
    public void fault(String method, String pathPart, Fault fault, long millis, int times) {
        faults.add(new FaultRule(method, pathPart, fault, millis, 1,
                new java.util.concurrent.atomic.AtomicInteger(times)));
    }

    /** Injects {@code fault} into each matching request with probability {@code chance}, at most {@code times}. */
    public void faultRandomly(String method, String pathPart, Fault fault, long millis, double chance, int times) {
        faults.add(new FaultRule(method, pathPart, fault, millis, chance,
                new java.util.concurrent.atomic.AtomicInteger(times)));
    }

    /** Removes every fault rule not yet used up. */
    public void clearFaults() {
        faults.clear();
    }

    /** How many faults were injected so far. */
    public int faultsInjected() {
        return faultsInjected.get();
    }

    private FaultRule faultFor(String method, String path) {
        for (FaultRule rule : faults) {
            if (rule.matches(method, path, faultRandom)) {
                faultsInjected.incrementAndGet();
                return rule;
            }
        }
        return null;
    }

    static final class Collection {
        final ObjectNode config;
        final TreeMap<String, ObjectNode> points = new TreeMap<>(FakeQdrant::compareIds);
        final Map<String, ObjectNode> payloadSchema = new LinkedHashMap<>();

        Collection(ObjectNode config) {
            this.config = config;
        }
    }

    public final List<Request> requests = new CopyOnWriteArrayList<>();
    /** How many points each {@code points/query} answer carried, in order (payloads moved by the order_by path). */
    public final List<Integer> queryAnswerSizes = new CopyOnWriteArrayList<>();
    /** Every request or response body that broke {@code openapi.json}, and every failure of the fake itself. */
    public final List<String> violations = new CopyOnWriteArrayList<>();
    final Deque<Injected> injected = new ArrayDeque<>();
    final Map<String, Collection> collections = new ConcurrentHashMap<>();
    private final HttpServer server;
    private long operationId;

    public FakeQdrant() {
        this(0);
    }

    /** A fake on a given loopback port (0: any free one), e.g. one a gateway was told about before it listened. */
    public FakeQdrant(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::handle);
        // a thread per request: a delayed answer (an injected fault) holds no other request up
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** The names of the collections the fake holds now. */
    public java.util.Set<String> collectionNames() {
        return java.util.Set.copyOf(collections.keySet());
    }

    /** The payload keys the collection indexes now (its {@code payload_schema}). */
    public java.util.Set<String> payloadIndexKeys(String collection) {
        return java.util.Set.copyOf(collection(collection).payloadSchema.keySet());
    }

    /**
     * Removes the collection's payload indexes whose key {@code drop} accepts, as {@code DELETE
     * /collections/{name}/index/{field}} does: a collection as an older gateway left it.
     */
    public void dropPayloadIndexes(String collection, java.util.function.Predicate<String> drop) {
        collection(collection).payloadSchema.keySet().removeIf(drop);
    }

    synchronized void inject(String method, String pathSuffix, int status, String body) {
        injected.add(new Injected(method, pathSuffix, status, body));
    }

    public List<Request> requests(String method, String pathSuffix) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().endsWith(pathSuffix)).toList();
    }

    // ---------------------------------------------------------------- HTTP

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String rawPath = exchange.getRequestURI().getRawPath();
            String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8);
            Map<String, String> query = new LinkedHashMap<>();
            String rawQuery = exchange.getRequestURI().getRawQuery();
            if (rawQuery != null) {
                for (String kv : rawQuery.split("&")) {
                    String[] p = kv.split("=", 2);
                    query.put(p[0], p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "");
                }
            }
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            JsonNode body = bytes.length == 0 ? null : MAPPER.readTree(bytes);
            requests.add(new Request(method, path, query, body, Map.copyOf(exchange.getRequestHeaders())));
            FaultRule fault = faultFor(method, path);
            if (fault != null) {
                switch (fault.fault()) {
                    case STATUS_500, STATUS_503 -> {
                        int status = fault.fault() == Fault.STATUS_500 ? 500 : 503;
                        byte[] answer = ("{\"status\":{\"error\":\"injected fault " + status
                                + "\"},\"time\":0.0}").getBytes(StandardCharsets.UTF_8);
                        exchange.getResponseHeaders().add("Content-Type", "application/json");
                        exchange.sendResponseHeaders(status, answer.length);
                        exchange.getResponseBody().write(answer);
                        return;
                    }
                    case RESET -> {
                        return; // no answer: closing an exchange without one drops the connection
                    }
                    case DELAY -> {
                        try {
                            Thread.sleep(fault.millis());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                    case TRUNCATE -> {
                        JsonNode result;
                        try {
                            synchronized (this) {
                                result = route(method, path, body);
                            }
                        } catch (Answer a) {
                            return;
                        }
                        ObjectNode envelope = NODES.objectNode();
                        envelope.set("result", result);
                        envelope.put("status", "ok");
                        byte[] answer = MAPPER.writeValueAsBytes(envelope);
                        exchange.getResponseHeaders().add("Content-Type", "application/json");
                        exchange.sendResponseHeaders(200, answer.length);
                        exchange.getResponseBody().write(answer, 0, answer.length / 2);
                        exchange.getResponseBody().flush();
                        return;
                    }
                }
            }
            Injected inject = takeInjected(method, path);
            if (inject != null) {
                send(exchange, inject.status(), inject.body().getBytes(StandardCharsets.UTF_8), null, null);
                return;
            }
            List<String> problems = OpenApiValidator.QDRANT.request(method, rawPath, body);
            if (!problems.isEmpty()) {
                violations.add("request " + method + " " + path + " " + body + ": " + problems);
                error(exchange, method, rawPath, 422, "Validation error in JSON body: " + problems);
                return;
            }
            JsonNode result;
            try {
                synchronized (this) {
                    result = route(method, path, body);
                }
            } catch (Answer a) {
                error(exchange, method, rawPath, a.status, a.getMessage());
                return;
            }
            ObjectNode envelope = NODES.objectNode();
            envelope.set("result", result);
            envelope.put("status", "ok");
            envelope.put("time", 0.000123);
            send(exchange, 200, MAPPER.writeValueAsBytes(envelope), method, rawPath);
        } catch (RuntimeException e) {
            violations.add("fake failed: " + e);
            throw e;
        }
    }

    private synchronized Injected takeInjected(String method, String path) {
        for (Injected i : injected) {
            if (i.method().equals(method) && path.endsWith(i.pathSuffix())) {
                injected.remove(i);
                return i;
            }
        }
        return null;
    }

    private void error(HttpExchange exchange, String method, String rawPath, int status, String message)
            throws IOException {
        ObjectNode envelope = NODES.objectNode();
        envelope.putObject("status").put("error", message);
        envelope.put("time", 0.000123);
        send(exchange, status, MAPPER.writeValueAsBytes(envelope), method, rawPath);
    }

    private void send(HttpExchange exchange, int status, byte[] body, String method, String rawPath)
            throws IOException {
        if (method != null) {
            List<String> problems = OpenApiValidator.QDRANT.response(method, rawPath, status, MAPPER.readTree(body));
            if (!problems.isEmpty()) {
                violations.add("response to " + method + " " + rawPath + ": " + problems);
            }
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
    }

    /** An error answer. */
    static final class Answer extends RuntimeException {
        final int status;

        Answer(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    // ---------------------------------------------------------------- routing

    private JsonNode route(String method, String path, JsonNode body) {
        String[] parts = path.substring(1).split("/", -1);
        if (parts[0].equals("collections") && parts.length == 1 && method.equals("GET")) {
            ObjectNode r = NODES.objectNode();
            ArrayNode list = r.putArray("collections");
            collections.keySet().forEach(n -> list.addObject().put("name", n));
            return r;
        }
        String name = parts[1];
        String rest = String.join("/", java.util.Arrays.copyOfRange(parts, 2, parts.length));
        if (rest.isEmpty()) {
            switch (method) {
                case "PUT" -> {
                    if (collections.containsKey(name)) {
                        throw new Answer(409, "Wrong input: Collection `" + name + "` already exists!");
                    }
                    collections.put(name, new Collection((ObjectNode) body));
                    return NODES.booleanNode(true);
                }
                case "DELETE" -> {
                    return NODES.booleanNode(collections.remove(name) != null);
                }
                case "GET" -> {
                    return info(name, collection(name));
                }
                default -> throw new Answer(405, "method");
            }
        }
        Collection c = collection(name);
        return switch (method + " " + rest) {
            case "PUT index" -> {
                ObjectNode schema = NODES.objectNode();
                JsonNode fs = body.get("field_schema");
                schema.put("data_type", fs.isTextual() ? fs.asText() : fs.get("type").asText());
                if (fs.isObject()) {
                    schema.set("params", fs);
                }
                schema.put("points", 0);
                c.payloadSchema.put(body.get("field_name").asText(), schema);
                yield updateResult();
            }
            case "POST points/batch" -> {
                ArrayNode results = NODES.arrayNode();
                for (JsonNode op : body.get("operations")) {
                    if (op.has("upsert")) {
                        for (JsonNode p : op.get("upsert").get("points")) {
                            ObjectNode point = NODES.objectNode();
                            String id = normalizeId(p.get("id"));
                            point.set("id", p.get("id").isNumber() ? p.get("id") : NODES.textNode(id));
                            point.set("payload", p.has("payload") && !p.get("payload").isNull() ? p.get("payload")
                                    : NODES.objectNode());
                            point.set("vector", p.get("vector"));
                            c.points.put(id, point);
                        }
                    } else if (op.has("delete")) {
                        for (JsonNode id : op.get("delete").get("points")) {
                            c.points.remove(normalizeId(id));
                        }
                    } else {
                        throw new Answer(400, "Bad request: operation not supported by the fake: " + op);
                    }
                    results.add(updateResult());
                }
                yield results;
            }
            case "POST points" -> {
                ArrayNode records = NODES.arrayNode();
                for (JsonNode id : body.get("ids")) {
                    ObjectNode point = c.points.get(normalizeId(id));
                    if (point != null) {
                        records.add(record(point, body.get("with_payload"), true));
                    }
                }
                yield records;
            }
            case "POST points/scroll" -> {
                if (body.hasNonNull("order_by")) {
                    if (body.hasNonNull("offset")) {
                        throw new Answer(400, "Bad request: Cannot use an `offset` when using `order_by`. The"
                                + " alternative for paging is to use `order_by.start_from` and a filter to exclude the"
                                + " IDs that you've already seen for the `order_by.start_from` value");
                    }
                    ObjectNode r = NODES.objectNode();
                    ArrayNode points = r.putArray("points");
                    List<Ordered> entries = ordered(c, body.get("order_by"), body.get("filter"));
                    for (Ordered e : entries.subList(0, Math.min(body.path("limit").asInt(10), entries.size()))) {
                        ObjectNode record = record(e.point(), body.get("with_payload"), true);
                        record.set("order_value", e.orderValue());
                        points.add(record);
                    }
                    r.putNull("next_page_offset");
                    yield r;
                }
                int limit = body.path("limit").asInt(10);
                String offset = body.hasNonNull("offset") ? normalizeId(body.get("offset")) : null;
                ArrayNode points = NODES.arrayNode();
                JsonNode next = NODES.nullNode();
                for (Map.Entry<String, ObjectNode> e : (offset == null ? c.points : c.points.tailMap(offset, true))
                        .entrySet()) {
                    if (!matches(body.get("filter"), e.getValue())) {
                        continue;
                    }
                    if (points.size() == limit) {
                        next = e.getValue().get("id");
                        break;
                    }
                    points.add(record(e.getValue(), body.get("with_payload"), true));
                }
                ObjectNode r = NODES.objectNode();
                r.set("points", points);
                r.set("next_page_offset", next);
                yield r;
            }
            case "POST points/count" -> {
                long n = c.points.values().stream().filter(p -> matches(body.get("filter"), p)).count();
                ObjectNode r = NODES.objectNode();
                r.put("count", n);
                yield r;
            }
            case "POST points/query" -> body.path("query").has("order_by") ? orderedQuery(c, body)
                    : FakeQdrantQuery.query(c, body);
            case "POST facet" -> facet(c, body);
            default -> throw new Answer(404, "Not found: the fake does not serve " + method + " " + path);
        };
    }

    /**
     * {@code facet} (guide §7): needs a keyword, uuid, integer (lookup) or bool index on the key; counts the matching points
     * per distinct value (an array counts once per distinct element); hits by count descending, then value ascending;
     * at most {@code limit} (default 10). The fake always counts exactly.
     */
    private static ObjectNode facet(Collection c, JsonNode body) {
        String key = body.get("key").asText();
        ObjectNode schema = c.payloadSchema.get(key);
        String type = schema == null ? "" : schema.path("data_type").asText();
        boolean lookup = schema != null && (!schema.path("params").path("lookup").isBoolean()
                || schema.path("params").path("lookup").asBoolean());
        if (!(type.equals("keyword") || type.equals("uuid") || type.equals("bool") || type.equals("integer") && lookup)) {
            throw new Answer(400, "Wrong input: No appropriate index for faceting: `" + key + "`. Please create one to"
                    + " facet on this field.");
        }
        Map<JsonNode, Long> counts = new LinkedHashMap<>();
        for (ObjectNode point : c.points.values()) {
            if (!matches(body.get("filter"), point)) {
                continue;
            }
            java.util.Set<JsonNode> distinct = new java.util.LinkedHashSet<>();
            for (JsonNode v : values(point.get("payload"), key)) {
                boolean typed = switch (type) {
                    case "keyword", "uuid" -> v.isTextual();
                    case "bool" -> v.isBoolean();
                    default -> v.isIntegralNumber();
                };
                if (typed) {
                    distinct.add(v.isIntegralNumber() ? NODES.numberNode(v.asLong()) : v);
                }
            }
            distinct.forEach(v -> counts.merge(v, 1L, Long::sum));
        }
        List<Map.Entry<JsonNode, Long>> hits = new ArrayList<>(counts.entrySet());
        hits.sort((x, y) -> {
            int byCount = Long.compare(y.getValue(), x.getValue());
            if (byCount != 0) {
                return byCount;
            }
            JsonNode a = x.getKey();
            JsonNode b = y.getKey();
            return a.isNumber() && b.isNumber() ? Long.compare(a.asLong(), b.asLong()) : a.asText().compareTo(b.asText());
        });
        int limit = body.hasNonNull("limit") ? body.get("limit").asInt() : 10;
        ObjectNode r = NODES.objectNode();
        ArrayNode out = r.putArray("hits");
        hits.stream().limit(limit).forEach(e -> {
            ObjectNode hit = out.addObject();
            hit.set("value", e.getKey());
            hit.put("count", e.getValue());
        });
        return r;
    }

    private static boolean schemaParam(ObjectNode schema, String name, boolean byDefault) {
        return schema == null || !schema.has("params") ? byDefault : schema.get("params").path(name).asBoolean(byDefault);
    }

    /**
     * The query API with an {@code order_by} query only (guide §5 and §8): needs a range index (integer with range,
     * float) on the key; a point appears once per distinct value of the key (points without one never appear);
     * ordered by value in the direction, ties by point id in the same direction; {@code start_from} is inclusive;
     * then {@code offset} and {@code limit} (default 10); {@code with_payload} defaults to false; score 1.0.
     */
    private JsonNode orderedQuery(Collection c, JsonNode body) {
        JsonNode query = body.get("query");
        if (query == null || !query.has("order_by") || body.has("prefetch")) {
            throw new Answer(400, "Bad request: only order_by queries are supported by the fake");
        }
        if (body.hasNonNull("score_threshold")) {
            throw new Answer(400, "Bad request: score_threshold cannot be used with order_by");
        }
        List<Ordered> entries = ordered(c, query.get("order_by"), body.get("filter"));
        int offset = body.path("offset").asInt(0);
        int limit = body.path("limit").asInt(10);
        ObjectNode r = NODES.objectNode();
        ArrayNode points = r.putArray("points");
        for (Ordered e : entries.subList(Math.min(offset, entries.size()), Math.min(offset + limit, entries.size()))) {
            ObjectNode p = record(e.point(), body.get("with_payload"), false);
            ObjectNode scored = NODES.objectNode();
            scored.set("id", p.get("id"));
            scored.put("version", 0);
            scored.put("score", 1.0);
            if (p.has("payload")) {
                scored.set("payload", p.get("payload"));
            }
            scored.set("order_value", e.orderValue());
            points.add(scored);
        }
        queryAnswerSizes.add(points.size());
        return r;
    }

    /** One entry of an {@code order_by} stream: a point at one of its values. */
    record Ordered(java.math.BigDecimal value, String id, ObjectNode point, boolean integer) {
        JsonNode orderValue() {
            return integer ? NODES.numberNode(value.longValueExact()) : NODES.numberNode(value.doubleValue());
        }
    }

    /**
     * The {@code order_by} stream (scroll and query alike): needs a range index (integer with range, float) on the
     * key; a point appears once per distinct value of the key (points without one never appear); ordered by value in
     * the direction, ties by point id in the same direction; {@code start_from} is inclusive.
     */
    private static List<Ordered> ordered(Collection c, JsonNode orderBy, JsonNode filter) {
        String key = orderBy.isTextual() ? orderBy.asText() : orderBy.get("key").asText();
        boolean desc = orderBy.isObject() && orderBy.path("direction").asText("asc").equals("desc");
        JsonNode startFrom = orderBy.isObject() ? orderBy.get("start_from") : null;
        ObjectNode schema = c.payloadSchema.get(key);
        String type = schema == null ? "" : schema.get("data_type").asText();
        boolean integer = type.equals("integer");
        if (!(integer && schemaParam(schema, "range", true) || type.equals("float"))) {
            throw new Answer(400, "Wrong input: No range index for `order_by` key: `" + key + "`. Please create one"
                    + " to use `order_by`. Check https://qdrant.tech/documentation/concepts/indexing/#payload-index"
                    + " to see which payload schemas support Range conditions");
        }
        if (startFrom != null && !startFrom.isNull() && !startFrom.isNumber()) {
            throw new Answer(400, "Bad request: datetime start_from is not supported by the fake");
        }
        List<Ordered> entries = new ArrayList<>();
        for (Map.Entry<String, ObjectNode> e : c.points.entrySet()) {
            if (!matches(filter, e.getValue())) {
                continue;
            }
            java.util.Set<java.math.BigDecimal> distinct = new java.util.TreeSet<>();
            for (JsonNode v : values(e.getValue().get("payload"), key)) {
                if (integer ? v.isIntegralNumber() : v.isNumber()) {
                    distinct.add(v.decimalValue().stripTrailingZeros());
                }
            }
            for (java.math.BigDecimal v : distinct) {
                if (startFrom == null || startFrom.isNull() || (desc ? v.compareTo(startFrom.decimalValue()) <= 0
                        : v.compareTo(startFrom.decimalValue()) >= 0)) {
                    entries.add(new Ordered(v, e.getKey(), e.getValue(), integer));
                }
            }
        }
        Comparator<Ordered> order = Comparator.comparing(Ordered::value).thenComparing(Ordered::id,
                FakeQdrant::compareIds);
        entries.sort(desc ? order.reversed() : order);
        return entries;
    }

    private Collection collection(String name) {
        Collection c = collections.get(name);
        if (c == null) {
            throw new Answer(404, "Not found: Collection `" + name + "` doesn't exist!");
        }
        return c;
    }

    private ObjectNode updateResult() {
        ObjectNode r = NODES.objectNode();
        r.put("operation_id", ++operationId);
        r.put("status", "completed");
        return r;
    }

    private static ObjectNode info(String name, Collection c) {
        ObjectNode r = NODES.objectNode();
        r.put("status", "green");
        r.put("optimizer_status", "ok");
        r.put("points_count", c.points.size());
        r.put("segments_count", 1);
        ObjectNode config = r.putObject("config");
        ObjectNode params = config.putObject("params");
        if (c.config.has("vectors")) {
            params.set("vectors", c.config.get("vectors"));
        } else {
            params.putObject("vectors");
        }
        params.put("shard_number", 1);
        params.put("replication_factor", 1);
        params.put("write_consistency_factor", 1);
        params.put("on_disk_payload", true);
        ObjectNode hnsw = config.putObject("hnsw_config");
        hnsw.put("m", 16);
        hnsw.put("ef_construct", 100);
        hnsw.put("full_scan_threshold", 10000);
        ObjectNode optimizer = config.putObject("optimizer_config");
        optimizer.put("deleted_threshold", 0.2);
        optimizer.put("vacuum_min_vector_number", 1000);
        optimizer.put("default_segment_number", 0);
        optimizer.put("flush_interval_sec", 5);
        ObjectNode schema = r.putObject("payload_schema");
        c.payloadSchema.forEach(schema::set);
        return r;
    }

    // ---------------------------------------------------------------- ids

    static String normalizeId(JsonNode id) {
        if (id.isIntegralNumber()) {
            return String.format("%020d", id.asLong());
        }
        String text = id.asText().toLowerCase(java.util.Locale.ROOT).replace("urn:uuid:", "");
        if (!text.contains("-")) {
            text = text.replaceFirst("(\\p{XDigit}{8})(\\p{XDigit}{4})(\\p{XDigit}{4})(\\p{XDigit}{4})(\\p{XDigit}+)",
                    "$1-$2-$3-$4-$5");
        }
        return UUID.fromString(text).toString();
    }

    /** Numbers before UUIDs; UUIDs as unsigned 128-bit numbers. */
    static int compareIds(String a, String b) {
        boolean na = !a.contains("-");
        boolean nb = !b.contains("-");
        if (na != nb) {
            return na ? -1 : 1;
        }
        if (na) {
            return a.compareTo(b);
        }
        UUID ua = UUID.fromString(a);
        UUID ub = UUID.fromString(b);
        int c = Long.compareUnsigned(ua.getMostSignificantBits(), ub.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(ua.getLeastSignificantBits(), ub.getLeastSignificantBits());
    }

    // ---------------------------------------------------------------- records and payload selection

    static ObjectNode record(ObjectNode point, JsonNode withPayload, boolean payloadByDefault) {
        ObjectNode r = NODES.objectNode();
        r.set("id", point.get("id"));
        JsonNode payload = point.get("payload");
        if (withPayload == null || withPayload.isNull()) {
            if (payloadByDefault) {
                r.set("payload", payload);
            }
        } else if (withPayload.isBoolean()) {
            if (withPayload.asBoolean()) {
                r.set("payload", payload);
            }
        } else {
            JsonNode include = withPayload.isArray() ? withPayload : withPayload.get("include");
            if (include == null) {
                throw new Answer(400, "Bad request: exclude is not supported by the fake");
            }
            ObjectNode selected = NODES.objectNode();
            for (JsonNode path : include) {
                copyPath(payload, selected, parsePath(path.asText()), 0);
            }
            r.set("payload", selected);
        }
        return r;
    }

    private static void copyPath(JsonNode from, ObjectNode to, List<Segment> path, int at) {
        Segment s = path.get(at);
        if (s.array() || s.index() >= 0 || !from.isObject() || !from.has(s.key())) {
            if (s.array() || s.index() >= 0) {
                throw new Answer(400, "Bad request: array paths in include lists are not supported by the fake");
            }
            return;
        }
        JsonNode value = from.get(s.key());
        if (at == path.size() - 1) {
            to.set(s.key(), value);
            return;
        }
        if (value.isObject()) {
            ObjectNode child = to.has(s.key()) && to.get(s.key()).isObject() ? (ObjectNode) to.get(s.key())
                    : to.putObject(s.key());
            copyPath(value, child, path, at + 1);
        }
    }

    // ---------------------------------------------------------------- paths

    record Segment(String key, boolean array, int index) {
    }

    /** Qdrant's JSON path: {@code a.b}, quoted {@code "a.b"}, {@code a[]}, {@code a[0]}. */
    static List<Segment> parsePath(String path) {
        List<Segment> out = new ArrayList<>();
        int i = 0;
        while (i < path.length()) {
            String key;
            if (path.charAt(i) == '"') {
                int end = path.indexOf('"', i + 1);
                if (end < 0) {
                    throw new Answer(400, "Bad request: unterminated quote in path " + path);
                }
                key = path.substring(i + 1, end);
                i = end + 1;
            } else {
                int j = i;
                while (j < path.length() && (Character.isLetterOrDigit(path.charAt(j)) || path.charAt(j) == '_'
                        || path.charAt(j) == '-')) {
                    j++;
                }
                if (j == i) {
                    throw new Answer(400, "Bad request: invalid path " + path);
                }
                key = path.substring(i, j);
                i = j;
            }
            boolean array = false;
            int index = -1;
            if (i < path.length() && path.charAt(i) == '[') {
                int end = path.indexOf(']', i);
                String inner = path.substring(i + 1, end);
                if (inner.isEmpty()) {
                    array = true;
                } else {
                    index = Integer.parseInt(inner);
                }
                i = end + 1;
            }
            out.add(new Segment(key, array, index));
            if (i < path.length()) {
                if (path.charAt(i) != '.') {
                    throw new Answer(400, "Bad request: invalid path " + path);
                }
                i++;
            }
        }
        return out;
    }

    /** The values at a path: a final array is flattened one level; {@code a.b} does not descend into an array a. */
    static List<JsonNode> values(JsonNode payload, String path) {
        List<JsonNode> current = List.of(payload);
        List<Segment> segments = parsePath(path);
        for (int s = 0; s < segments.size(); s++) {
            Segment seg = segments.get(s);
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode node : current) {
                if (!node.isObject() || !node.has(seg.key())) {
                    continue;
                }
                JsonNode v = node.get(seg.key());
                if (seg.array()) {
                    if (v.isArray()) {
                        v.forEach(next::add);
                    }
                } else if (seg.index() >= 0) {
                    if (v.isArray() && v.size() > seg.index()) {
                        next.add(v.get(seg.index()));
                    }
                } else {
                    next.add(v);
                }
            }
            current = next;
        }
        List<JsonNode> flat = new ArrayList<>();
        for (JsonNode v : current) {
            if (v.isArray()) {
                v.forEach(flat::add);
            } else {
                flat.add(v);
            }
        }
        return flat;
    }

    // ---------------------------------------------------------------- filters

    static boolean matches(JsonNode filter, ObjectNode point) {
        if (filter == null || filter.isNull()) {
            return true;
        }
        for (String key : List.of("must", "should", "must_not", "min_should")) {
            if (filter.has(key) && filter.get(key).isArray() && filter.get(key).isEmpty() && !key.equals("min_should")) {
                throw new IllegalStateException("an empty [" + key + "] clause array was sent (guide §9): " + filter);
            }
        }
        if (filter.hasNonNull("must")) {
            for (JsonNode c : asList(filter.get("must"))) {
                if (!condition(c, point)) {
                    return false;
                }
            }
        }
        if (filter.hasNonNull("should")) {
            boolean any = false;
            for (JsonNode c : asList(filter.get("should"))) {
                any |= condition(c, point);
            }
            if (!any) {
                return false;
            }
        }
        if (filter.hasNonNull("must_not")) {
            for (JsonNode c : asList(filter.get("must_not"))) {
                if (condition(c, point)) {
                    return false;
                }
            }
        }
        if (filter.hasNonNull("min_should")) {
            JsonNode ms = filter.get("min_should");
            int n = 0;
            for (JsonNode c : asList(ms.get("conditions"))) {
                if (condition(c, point)) {
                    n++;
                }
            }
            if (n < ms.get("min_count").asInt()) {
                return false;
            }
        }
        return true;
    }

    private static List<JsonNode> asList(JsonNode clause) {
        List<JsonNode> out = new ArrayList<>();
        if (clause.isArray()) {
            clause.forEach(out::add);
        } else {
            out.add(clause);
        }
        return out;
    }

    private static boolean condition(JsonNode c, ObjectNode point) {
        if (c.has("must") || c.has("should") || c.has("must_not") || c.has("min_should")) {
            return matches(c, point);
        }
        if (c.has("has_id")) {
            String id = normalizeId(point.get("id"));
            for (JsonNode h : c.get("has_id")) {
                if (normalizeId(h).equals(id)) {
                    return true;
                }
            }
            return false;
        }
        if (c.has("has_vector")) {
            JsonNode v = point.get("vector");
            String name = c.get("has_vector").asText();
            return v != null && (name.isEmpty() ? v.isArray() : v.isObject() && v.has(name));
        }
        if (c.has("is_empty")) {
            return values(point.get("payload"), c.get("is_empty").get("key").asText()).stream()
                    .allMatch(JsonNode::isNull);
        }
        if (c.has("is_null")) {
            List<JsonNode> raw = rawValues(point.get("payload"), c.get("is_null").get("key").asText());
            return raw.size() == 1 && raw.get(0).isNull();
        }
        if (c.has("nested")) {
            JsonNode nested = c.get("nested");
            for (JsonNode element : values(point.get("payload"), nested.get("key").asText())) {
                if (element.isObject()) {
                    ObjectNode fakePoint = NODES.objectNode();
                    fakePoint.set("id", point.get("id"));
                    fakePoint.set("payload", element);
                    if (matches(nested.get("filter"), fakePoint)) {
                        return true;
                    }
                }
            }
            return false;
        }
        String key = c.get("key").asText();
        List<JsonNode> values = values(point.get("payload"), key).stream().filter(v -> !v.isNull()).toList();
        if (c.has("match")) {
            JsonNode m = c.get("match");
            if (m.has("value")) {
                return values.stream().anyMatch(v -> sameTyped(v, m.get("value")));
            }
            if (m.has("any")) {
                return values.stream().anyMatch(v -> contains(m.get("any"), v));
            }
            if (m.has("except")) {
                return values.stream().anyMatch(v -> !contains(m.get("except"), v));
            }
            if (m.has("prefix")) {
                return values.stream().anyMatch(v -> v.isTextual() && v.asText().startsWith(m.get("prefix").asText()));
            }
            if (m.has("text")) {
                return values.stream().anyMatch(v -> v.isTextual() && v.asText().contains(m.get("text").asText()));
            }
            throw new Answer(400, "Bad request: match not supported by the fake: " + m);
        }
        if (c.has("range")) {
            JsonNode r = c.get("range");
            return values.stream().filter(JsonNode::isNumber).anyMatch(v -> {
                double x = v.asDouble();
                return (!r.hasNonNull("gt") || x > r.get("gt").asDouble())
                        && (!r.hasNonNull("gte") || x >= r.get("gte").asDouble())
                        && (!r.hasNonNull("lt") || x < r.get("lt").asDouble())
                        && (!r.hasNonNull("lte") || x <= r.get("lte").asDouble());
            });
        }
        if (c.has("values_count")) {
            JsonNode r = c.get("values_count");
            int n = values.size();
            return (!r.hasNonNull("gt") || n > r.get("gt").asInt()) && (!r.hasNonNull("gte") || n >= r.get("gte").asInt())
                    && (!r.hasNonNull("lt") || n < r.get("lt").asInt()) && (!r.hasNonNull("lte") || n <= r.get("lte").asInt());
        }
        throw new Answer(422, "Validation error in JSON body: [condition not understood by the fake: " + c + "]");
    }

    private static List<JsonNode> rawValues(JsonNode payload, String key) {
        List<Segment> segments = parsePath(key);
        JsonNode node = payload;
        for (Segment s : segments) {
            if (!node.isObject() || !node.has(s.key())) {
                return List.of();
            }
            node = node.get(s.key());
        }
        return List.of(node);
    }

    /** Strict JSON types: an integer never equals a float, a string never a number. */
    private static boolean sameTyped(JsonNode stored, JsonNode wanted) {
        if (wanted.isTextual()) {
            return stored.isTextual() && stored.asText().equals(wanted.asText());
        }
        if (wanted.isBoolean()) {
            return stored.isBoolean() && stored.asBoolean() == wanted.asBoolean();
        }
        if (wanted.isIntegralNumber()) {
            return stored.isIntegralNumber() && stored.asLong() == wanted.asLong();
        }
        return false;
    }

    private static boolean contains(JsonNode list, JsonNode v) {
        for (JsonNode e : list) {
            if (sameTyped(v, e)) {
                return true;
            }
        }
        return false;
    }

    static Comparator<String> idOrder() {
        return FakeQdrant::compareIds;
    }
}
