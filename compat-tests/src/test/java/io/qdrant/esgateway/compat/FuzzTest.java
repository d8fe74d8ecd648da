package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A seeded fuzzer over real HTTP: the requests of every differential scenario (setup and cases), mutated — bad JSON,
 * wrong types, huge numbers, long strings, bad UTF-8, deep nesting, odd index names and ids, odd URL parameters,
 * NDJSON edge cases — sent to a gateway on the embedded store and one on Qdrant (the spec-checked fake). Every answer
 * must come within the per-request timeout and be below 500 (the only 500 Elasticsearch itself answers, too many
 * scroll contexts, excepted), and the gateway must still answer afterwards. CI sends a fixed number of requests
 * ({@code -Dqeg.fuzz.requests}, per backend, default 300) from a fixed seed ({@code -Dqeg.fuzz.seed}, default 26): the
 * same seed gives the same requests, so the same run on every machine (their digest is printed to compare). A time
 * budget instead ({@code -Dqeg.fuzz.seconds}, which {@code ./qeg fuzz} sets) runs as many as fit. The figures are
 * printed as {@code [fuzz] …} lines.
 */
class FuzzTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int REQUESTS = Integer.getInteger("qeg.fuzz.requests", 300);
    /** A time budget per backend instead of {@link #REQUESTS} when positive. */
    private static final int SECONDS = Integer.getInteger("qeg.fuzz.seconds", 0);
    private static final long SEED = Long.getLong("qeg.fuzz.seed", 26L);
    /** Longer than any answer of a healthy gateway; an answer that takes longer is a hang. */
    private static final int REQUEST_TIMEOUT_MS = 20_000;

    private static BackendPair backends;
    private static List<RequestSpec> setups;
    private static List<RequestSpec> corpus;

    @BeforeAll
    static void start() throws IOException {
        backends = BackendPair.start("qeg-fuzz-", Map.of("QEG_WARM_UP", "off"));
        setups = new ArrayList<>();
        corpus = new ArrayList<>();
        for (Scenario s : ScenarioLoader.loadAll()) {
            if (s.id().startsWith("generated") || s.id().startsWith("analyze-corpus")) {
                continue; // large and repetitive: the hand-written scenarios cover their endpoints
            }
            s.setup().forEach(step -> setups.add(step.request()));
            s.cases().forEach(c -> corpus.add(c.request()));
        }
        corpus.addAll(setups);
    }

    @AfterAll
    static void stop() throws IOException {
        if (backends != null) {
            backends.close();
        }
    }

    /** One raw answer: status (0 when none came) and body text. */
    record Answer(int status, String body) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"lucene", "qdrant"})
    void mutatedScenarioRequestsNeverGetA5xxNorHang(String backend) throws Exception {
        int port = backend.equals("lucene") ? backends.onLucene.port() : backends.onQdrant.port();
        assertThat(corpus).hasSizeGreaterThan(500);
        Random random = new Random(SEED + backend.hashCode());
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (RequestSpec setup : setups) {
            check(port, new Mutated(setup.method(), substitute(setup.path()), bytes(setup.body()),
                    setup.contentType(), "setup"), statuses, failures);
        }
        long deadline = System.nanoTime() + SECONDS * 1_000_000_000L;
        int tried = 0;
        java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
        while ((SECONDS > 0 ? System.nanoTime() < deadline : tried < REQUESTS) && failures.size() < 20) {
            if (tried > 0 && tried % 400 == 0) {
                RequestSpec setup = setups.get(random.nextInt(setups.size())); // the state drifts: refill some
                check(port, new Mutated(setup.method(), substitute(setup.path()), bytes(setup.body()),
                        setup.contentType(), "setup"), statuses, failures);
            }
            Mutated m = mutate(corpus.get(random.nextInt(corpus.size())), random);
            m.addTo(digest);
            check(port, m, statuses, failures);
            tried++;
        }
        Answer alive = send(port, "GET", "/", null, null);
        System.out.println("[fuzz] " + backend + ": " + tried + " requests" + (SECONDS > 0 ? " in " + SECONDS + " s"
                : "") + " (seed " + SEED + ", requests digest " + java.util.HexFormat.of().formatHex(digest.digest())
                .substring(0, 16) + "), statuses " + statuses + ", failures " + failures.size());
        assertThat(alive.status).as("the gateway still answers").isEqualTo(200);
        assertThat(failures).as("answers >= 500, hangs or dropped connections").isEmpty();
        if (backend.equals("qdrant")) {
            assertThat(backends.qdrant.violations).as("requests the gateway sent Qdrant outside its API").isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void theSameSeedGivesTheSameRequests() throws Exception {
        assertThat(requestsDigest(SEED, 500)).isEqualTo(requestsDigest(SEED, 500));
        assertThat(requestsDigest(SEED, 500)).isNotEqualTo(requestsDigest(SEED + 1, 500));
    }

    /** The digest of the first {@code n} mutated requests of a seed, as the fuzzer generates them. */
    private static String requestsDigest(long seed, int n) throws Exception {
        Random random = new Random(seed);
        java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
        for (int i = 0; i < n; i++) {
            if (i > 0 && i % 400 == 0) {
                random.nextInt(setups.size());
            }
            mutate(corpus.get(random.nextInt(corpus.size())), random).addTo(digest);
        }
        return java.util.HexFormat.of().formatHex(digest.digest());
    }

    /** Sends one request and records its status; a 5xx (but ES's own), no answer or a dropped connection fails. */
    private static void check(int port, Mutated m, Map<Integer, Integer> statuses, List<String> failures) {
        Answer a;
        long start = System.nanoTime();
        try {
            a = send(port, m.method, m.path, m.body, m.contentType);
        } catch (SocketTimeoutException e) {
            a = new Answer(-1, "no answer within " + REQUEST_TIMEOUT_MS + " ms");
        } catch (IOException | RuntimeException e) {
            a = new Answer(0, "connection failed: " + e);
        }
        statuses.merge(a.status, 1, Integer::sum);
        boolean allowed500 = a.status == 500 && a.body.contains("Trying to create too many scroll contexts");
        if (a.status >= 500 && !allowed500 || a.status <= 0) {
            failures.add(a.status + " after " + (System.nanoTime() - start) / 1_000_000 + " ms for " + m.describe()
                    + "\n  answer: " + abbreviate(a.body, 600));
        }
    }

    // ---------------------------------------------------------------- mutation

    /** A request as sent: raw path and body bytes. */
    record Mutated(String method, String path, byte[] body, String contentType, String how) {
        /** Adds this request (method, path, content type, body) to a digest of a run's requests. */
        void addTo(java.security.MessageDigest digest) {
            for (String part : new String[] {method, path, String.valueOf(contentType)}) {
                digest.update(part.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            if (body != null) {
                digest.update(body);
            }
            digest.update((byte) 1);
        }

        String describe() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return "[" + how + "] " + method + " " + abbreviate(path, 300) + "\n  body: " + abbreviate(text, 600);
        }
    }

    private static final String[] ODD_NAMES = {"_all", "*", "-lead", "UPPER", "a%20b", "%E2%82%AC", "..", ".",
        "a,b", "x".repeat(300), "%25", "_doc", "_search", "a*b", "%00", "%ZZ", "%C3%28", "idx%2Fslash", "%22q%22",
        "1", "-1", "_", "a:b", "%7B%7D", "\u00e9t\u00e9", "a#b", "index?x", "%F0%9F%98%80"};
    private static final String[] ODD_PARAMS = {"size=-1", "size=abc", "size=99999999999", "from=-5",
        "from=2147483648", "scroll=zz", "scroll=-1", "timeout=abc", "refresh=maybe", "version=x", "routing=",
        "q=%28%28", "q=a:%5B1%20TO", "sort=f:sideways", "_source=", "filter_path=%2A%2A", "pretty", "track_total_hits=x",
        "wait_for_completion=no", "conflicts=x", "if_seq_no=abc", "if_primary_term=-1", "op_type=zap", "unknown=1",
        "expand_wildcards=nope", "ignore_unavailable=2", "max_docs=-1", "slices=0", "keep_alive=1x", "%ZZ=1",
        "format=yaml", "h=%00", "typed_keys=2", "preference=%C3%28", "search_type=dfs"};
    private static final JsonNode[] ODD_VALUES = {NODES.numberNode(new java.math.BigInteger("9".repeat(400))),
        NODES.numberNode(-1), NODES.numberNode(2147483648L), NODES.numberNode(Long.MIN_VALUE),
        NODES.numberNode(1e308), NODES.numberNode(-0.0), NODES.numberNode(new java.math.BigDecimal("1e-400")),
        NODES.textNode(""), NODES.textNode("x".repeat(40_000)), NODES.textNode("\u0000\ud83d"), NODES.nullNode(),
        NODES.booleanNode(true), NODES.arrayNode(), NODES.objectNode(), NODES.textNode("now-1d/d"),
        NODES.textNode("*"), NODES.textNode("_all"), NODES.textNode("NaN"), NODES.textNode("1e999"),
        NODES.textNode("2024-13-45"), NODES.textNode("ctx._source.x = 1/0"), NODES.textNode("%{[")};

    private static Mutated mutate(RequestSpec base, Random r) {
        String method = base.method();
        String path = substitute(base.path());
        String body = base.body() == null ? null : substitute(base.body());
        String contentType = base.contentType();
        int kind = r.nextInt(12);
        String how;
        byte[] out = bytes(body);
        switch (kind) {
            case 0, 1, 2 -> {
                how = "json value";
                out = body == null ? bytes("{\"query\":{\"match_all\":{}}}") : mutateJson(body, r);
            }
            case 3 -> {
                how = "bytes";
                out = mutateBytes(out == null ? bytes("{}") : out, r);
            }
            case 4 -> {
                how = "bad utf-8";
                out = insert(out == null ? bytes("{\"a\":\"\"}") : out, r,
                        new byte[][] {{(byte) 0xC3, 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                            {(byte) 0xF0, (byte) 0x9F}, {(byte) 0xC0, (byte) 0xAF}}[r.nextInt(5)]);
            }
            case 5 -> {
                how = "index name";
                path = replaceSegment(path, 0, ODD_NAMES[r.nextInt(ODD_NAMES.length)]);
            }
            case 6 -> {
                how = "id";
                path = replaceSegment(path, -1, ODD_NAMES[r.nextInt(ODD_NAMES.length)]);
            }
            case 7 -> {
                how = "url parameter";
                path = path + (path.contains("?") ? "&" : "?") + ODD_PARAMS[r.nextInt(ODD_PARAMS.length)];
            }
            case 8 -> {
                how = "deep nesting";
                int depth = new int[] {30, 900, 1001, 5000}[r.nextInt(4)];
                String inner = r.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth)
                        : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
                out = body == null || !body.trim().startsWith("{") ? bytes("{\"query\":" + inner + "}")
                        : bytes("{\"zz\":" + inner + "," + body.trim().substring(1));
            }
            case 9 -> {
                how = "ndjson";
                out = mutateNdjson(body, r);
                contentType = "application/x-ndjson";
                if (!path.contains("_bulk") && !path.contains("_msearch") && !path.contains("_mget")) {
                    path = new String[] {"/_bulk", "/fuzz/_bulk", "/_msearch", "/fuzz/_msearch"}[r.nextInt(4)];
                    method = "POST";
                }
            }
            case 10 -> {
                how = "method";
                method = new String[] {"GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"}[r.nextInt(7)];
            }
            default -> {
                how = "content type";
                contentType = new String[] {"text/plain", null, "application/json; charset=latin1",
                    "application/x-ndjson", "application/vnd.elasticsearch+json;compatible-with=7", "*/*"}[r.nextInt(6)];
                if (r.nextBoolean() && out != null) {
                    out = mutateJson(body, r);
                }
            }
        }
        return new Mutated(method, path, out, contentType, how);
    }

    /** One random JSON node of the body replaced, removed, wrapped or given a sibling; not JSON: a byte mutation. */
    private static byte[] mutateJson(String body, Random r) {
        JsonNode root;
        try {
            if (body.contains("\n") && !body.trim().startsWith("{\n")) {
                return mutateNdjson(body, r);
            }
            root = MAPPER.readTree(body);
        } catch (IOException e) {
            return mutateBytes(bytes(body), r);
        }
        if (root == null || !root.isContainerNode()) {
            return bytes(ODD_VALUES[r.nextInt(ODD_VALUES.length)].toString());
        }
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(r.nextInt(containers.size()));
        JsonNode value = ODD_VALUES[r.nextInt(ODD_VALUES.length)];
        if (target instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            int op = r.nextInt(4);
            if (names.isEmpty() || op == 0) {
                o.set(r.nextBoolean() ? "fuzz_key" : "", value);
            } else {
                String name = names.get(r.nextInt(names.size()));
                switch (op) {
                    case 1 -> o.remove(name);
                    case 2 -> o.set(name, NODES.arrayNode().add(o.get(name)));
                    default -> o.set(name, value);
                }
            }
        } else if (target instanceof ArrayNode a) {
            if (a.isEmpty() || r.nextBoolean()) {
                // a huge array of a small value (not of a long string: that would be gigabytes)
                int n = r.nextInt(3) == 0 && value.toString().length() < 100 ? 70_000 : 1;
                for (int i = 0; i < n; i++) {
                    a.add(value);
                }
            } else {
                a.set(r.nextInt(a.size()), value);
            }
        }
        return bytes(root.toString());
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                collect(it.next(), out);
            }
        }
    }

    private static byte[] mutateNdjson(String body, Random r) {
        List<String> lines = new ArrayList<>(body == null ? List.of() : List.of(body.split("\n", -1)));
        if (lines.isEmpty() || lines.size() == 1) {
            lines = new ArrayList<>(List.of("{\"index\":{\"_index\":\"fuzz\",\"_id\":\"1\"}}", "{\"a\":1}", ""));
        }
        switch (r.nextInt(9)) {
            case 0 -> lines.set(lines.size() - 1, lines.get(lines.size() - 1) + "x"); // no final newline
            case 1 -> lines.add(r.nextInt(lines.size()), ""); // blank line
            case 2 -> lines.remove(r.nextInt(lines.size())); // a line missing: actions and sources shift
            case 3 -> lines.add(0, "{\"zap\":{\"_index\":\"fuzz\"}}");
            case 4 -> lines.add(0, "{\"index\":{\"_index\":" + ODD_VALUES[r.nextInt(ODD_VALUES.length)] + "}}");
            case 5 -> {
                return bytes(String.join("\r\n", lines));
            }
            case 6 -> lines.add(0, "{\"delete\":{\"_index\":\"fuzz\",\"_id\":\"" + "i".repeat(600) + "\"}}");
            case 7 -> lines.add(0, "{\"update\":{\"_index\":\"fuzz\",\"_id\":\"1\"}}\n{\"doc\":" + "[".repeat(1500));
            default -> {
                int at = r.nextInt(lines.size());
                lines.set(at, new String(mutateJson(lines.get(at).isEmpty() ? "{}" : lines.get(at), r),
                        StandardCharsets.UTF_8));
            }
        }
        return bytes(String.join("\n", lines));
    }

    private static byte[] mutateBytes(byte[] in, Random r) {
        byte[] b = in.clone();
        switch (r.nextInt(4)) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, b.length == 0 ? 0 : r.nextInt(b.length)); // truncated
            }
            case 1 -> {
                if (b.length > 0) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
                return b;
            }
            case 2 -> {
                return insert(b, r, new byte[] {(byte) "{}[]\":,\\".charAt(r.nextInt(8))});
            }
            default -> {
                return new byte[0];
            }
        }
    }

    private static byte[] insert(byte[] in, Random r, byte[] what) {
        int at = in.length == 0 ? 0 : r.nextInt(in.length);
        byte[] out = new byte[in.length + what.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(in, at, out, at + what.length, in.length - at);
        return out;
    }

    /** The path with its {@code index}-th segment (negative: from the end) replaced; the query string kept. */
    private static String replaceSegment(String path, int index, String with) {
        int q = path.indexOf('?');
        String p = q < 0 ? path : path.substring(0, q);
        String query = q < 0 ? "" : path.substring(q);
        String[] parts = p.substring(1).split("/", -1);
        if (parts.length == 0 || parts[0].isEmpty()) {
            return "/" + with + query;
        }
        int i = index >= 0 ? Math.min(index, parts.length - 1) : parts.length - 1;
        parts[i] = with;
        return "/" + String.join("/", parts) + query;
    }

    /** Scenario placeholders ({@code {{sid}}}) get a value of the right shape. */
    private static String substitute(String text) {
        return text == null ? null : text.replaceAll("\\{\\{[a-z_]+}}", "FuzzContextId");
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + " … (" + s.length() + " chars)";
    }

    // ---------------------------------------------------------------- raw HTTP

    /** The status line and headers, up to the blank line. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            head.append(line).append("\r\n");
        }
        return head.toString();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b < 0 && line.size() == 0) {
            throw new java.io.EOFException("connection closed before an answer");
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** One request on a fresh connection, bytes exactly as given (a path with spaces or a bad body included). */
    static Answer send(int port, String method, String path, byte[] body, String contentType) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(REQUEST_TIMEOUT_MS);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            if (body != null) {
                if (contentType != null) {
                    request.write(("Content-Type: " + contentType + "\r\n").getBytes(StandardCharsets.UTF_8));
                }
                request.write(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            request.write("\r\n".getBytes(StandardCharsets.UTF_8));
            if (body != null) {
                request.write(body);
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toByteArray());
            out.flush();
            InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
            String head = readHead(in);
            if (!head.startsWith("HTTP/1.1 ")) {
                return new Answer(0, "no status line: " + abbreviate(head, 200));
            }
            int status = Integer.parseInt(head.substring(9, 12));
            String lower = head.toLowerCase(java.util.Locale.ROOT);
            byte[] answer;
            if (method.equals("HEAD") || status == 204 || status == 304) {
                answer = new byte[0];
            } else if (lower.contains("transfer-encoding: chunked")) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                while (true) {
                    String size = readLine(in).trim();
                    int semi = size.indexOf(';');
                    int n = Integer.parseInt(semi < 0 ? size : size.substring(0, semi), 16);
                    if (n == 0) {
                        readLine(in);
                        break;
                    }
                    all.write(in.readNBytes(n));
                    readLine(in);
                }
                answer = all.toByteArray();
            } else {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("content-length: *(\\d+)").matcher(lower);
                answer = m.find() ? in.readNBytes(Integer.parseInt(m.group(1))) : in.readAllBytes();
            }
            return new Answer(status, new String(answer, StandardCharsets.UTF_8));
        }
    }
}
