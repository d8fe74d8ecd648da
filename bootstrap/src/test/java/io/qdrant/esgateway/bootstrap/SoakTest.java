package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sustained load with every answer checked: 8 clients of mixed writes (bulk, index, update, delete) and reads (get,
 * mget, count, search with aggregations) against a gateway process — embedded, and in shared mode (Valkey/Redis
 * catalog, the fake Qdrant as a process) — each client owning its documents and keeping a model of them. Any error
 * or answer that differs from the model fails; so does resident memory that keeps growing after warm-up (the heap
 * is fixed and touched at start, so growth is anything else). {@code -Dqeg.soak.minutes} per mode (default 0.5 in
 * CI); {@code ./qeg soak --minutes 10} runs the long version. The figures are printed as {@code [soak] …} lines.
 */
class SoakTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int CLIENTS = 8;
    private static final int IDS_PER_CLIENT = 150;
    private static final double MINUTES = Double.parseDouble(System.getProperty("qeg.soak.minutes", "0.5"));
    private static final String[] TAGS = {"red", "green", "blue", "black"};

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "shared"})
    void eightClientsOfCheckedReadsAndWrites(String mode, @TempDir Path dir) throws Exception {
        RedisTestServer redis = null;
        Process qdrant = null;
        Process gateway = null;
        try {
            List<String> args = new ArrayList<>(List.of(Main.class.getName(), "--port", "0", "--data",
                    dir.resolve("data").toString()));
            if (mode.equals("shared")) {
                redis = RedisTestServer.start(true);
                Path qdrantLog = dir.resolve("qdrant.log");
                qdrant = ChildProcesses.fakeQdrant(qdrantLog);
                int qdrantPort = ChildProcesses.awaitPort(qdrant, qdrantLog, ChildProcesses.QDRANT_READY);
                args.addAll(List.of("--backend", "qdrant", "--qdrant-url", "http://127.0.0.1:" + qdrantPort,
                        "--catalog", "redis", "--redis-url", redis.url(4)));
            }
            Path log = dir.resolve("gateway.log");
            gateway = ChildProcesses.java(List.of("-Xms192m", "-Xmx192m", "-XX:+AlwaysPreTouch", "-XX:+UseSerialGC"),
                    args, log, Map.of("QEG_WARM_UP", "off", "QEG_REDIS_PREFIX", "soak:"));
            EsClient es = new EsClient(ChildProcesses.awaitPort(gateway, log, ChildProcesses.GATEWAY_READY));
            EsClient.Reply created = es.put("/soak", EsClient.json("{'mappings':{'properties':{'client':{'type':"
                    + "'keyword'},'key':{'type':'keyword'},'n':{'type':'long'},'tag':{'type':'keyword'},'text':{'type':'text'}}}}"));
            assertThat(created.status()).as(created.toString()).isEqualTo(200);

            long pid = gateway.pid();
            List<long[]> rss = new CopyOnWriteArrayList<>(); // {seconds since start, KiB}
            Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
            List<String> wrong = new CopyOnWriteArrayList<>();
            long start = System.nanoTime();
            long end = start + (long) (MINUTES * 60e9);
            try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1)) {
                List<Future<?>> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    clients.add(pool.submit(() -> new Client(es, client, counts, wrong).run(end)));
                }
                pool.submit(() -> {
                    while (System.nanoTime() < end && wrong.size() < 20) {
                        rss.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, ChildProcesses.rssKib(pid)});
                        try {
                            Thread.sleep(Math.max(1000, (long) (MINUTES * 60_000 / 30)));
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                for (Future<?> f : clients) {
                    f.get((long) (MINUTES * 60) + 300, TimeUnit.SECONDS);
                }
            }
            rss.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, ChildProcesses.rssKib(pid)});
            long total = counts.values().stream().mapToLong(AtomicLong::get).sum();
            StringBuilder samples = new StringBuilder();
            for (long[] s : rss) {
                samples.append(samples.isEmpty() ? "" : ", ").append(s[0]).append("s=").append(s[1] / 1024);
            }
            System.out.println("[soak] " + mode + ": " + CLIENTS + " clients, " + MINUTES + " min, " + total
                    + " requests " + new TreeMap<>(Map.copyOf(counts)) + ", " + wrong.size()
                    + " wrong or failed; RSS MiB " + samples);
            assertThat(wrong).as("errors and answers that differ from the model").isEmpty();
            assertThat(total).isGreaterThan(CLIENTS * 20L);
            // resident memory after warm-up (the first quarter) stays flat: no more than 64 MiB above it at the end
            long warm = rss.stream().filter(s -> s[0] >= MINUTES * 60 / 4).findFirst().orElse(rss.getLast())[1];
            long last = rss.getLast()[1];
            assertThat(last).as("RSS KiB at the end against after warm-up (" + warm + ")").isLessThan(warm + 64 * 1024);
            assertThat(gateway.isAlive()).isTrue();
        } finally {
            ChildProcesses.stop(gateway);
            ChildProcesses.stop(qdrant);
            if (redis != null) {
                redis.close();
            }
        }
    }

    /** One client: its own documents, a model of them, and a random mix of checked operations. */
    private static final class Client {
        private final EsClient es;
        private final int client;
        private final Map<String, AtomicLong> counts;
        private final List<String> wrong;
        private final Map<String, ObjectNode> model = new TreeMap<>();
        private final Random random;

        Client(EsClient es, int client, Map<String, AtomicLong> counts, List<String> wrong) {
            this.es = es;
            this.client = client;
            this.counts = counts;
            this.wrong = wrong;
            this.random = new Random(26 + client);
        }

        void run(long end) {
            while (System.nanoTime() < end && wrong.size() < 20) {
                int op = random.nextInt(100);
                try {
                    if (op < 20) {
                        bulk();
                    } else if (op < 32) {
                        index();
                    } else if (op < 40) {
                        update();
                    } else if (op < 45) {
                        delete();
                    } else if (op < 68) {
                        get();
                    } else if (op < 75) {
                        mget();
                    } else if (op < 87) {
                        count();
                    } else {
                        aggregate();
                    }
                } catch (RuntimeException e) {
                    wrong.add("client " + client + ": " + e + (e.getCause() == null ? "" : ", caused by " + e.getCause()));
                }
            }
        }

        private String id() {
            return "c" + client + "-" + random.nextInt(IDS_PER_CLIENT);
        }

        private ObjectNode doc(String id) {
            ObjectNode d = MAPPER.createObjectNode();
            d.put("client", "c" + client);
            d.put("key", id);
            d.put("n", random.nextInt(1000));
            d.put("tag", TAGS[random.nextInt(TAGS.length)]);
            d.put("text", "word" + random.nextInt(50) + " common");
            return d;
        }

        private void counted(String op) {
            counts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
        }

        private void fail(String what, EsClient.Reply reply) {
            String text = reply == null ? "" : reply.toString();
            wrong.add("client " + client + " " + what + ": " + (text.length() > 500 ? text.substring(0, 500) : text));
        }

        private void bulk() {
            StringBuilder body = new StringBuilder();
            List<String> ids = new ArrayList<>();
            List<ObjectNode> docs = new ArrayList<>();
            int n = 1 + random.nextInt(10);
            for (int i = 0; i < n; i++) {
                String id = id();
                if (ids.contains(id)) {
                    continue;
                }
                ids.add(id);
                if (random.nextInt(5) == 0) {
                    docs.add(null);
                    body.append("{\"delete\":{\"_id\":\"").append(id).append("\"}}\n");
                } else {
                    ObjectNode d = doc(id);
                    docs.add(d);
                    body.append("{\"index\":{\"_id\":\"").append(id).append("\"}}\n").append(d).append('\n');
                }
            }
            EsClient.Reply r = es.post("/soak/_bulk", body.toString());
            counted("bulk");
            if (r.status() != 200 || r.json().path("errors").asBoolean()) {
                fail("bulk", r);
                return;
            }
            JsonNode items = r.json().path("items");
            for (int i = 0; i < ids.size(); i++) {
                if (docs.get(i) == null) {
                    int status = items.get(i).path("delete").path("status").asInt();
                    if (status != (model.containsKey(ids.get(i)) ? 200 : 404)) {
                        fail("bulk delete " + ids.get(i) + " status " + status, r);
                    }
                    model.remove(ids.get(i));
                } else {
                    int status = items.get(i).path("index").path("status").asInt();
                    if (status != (model.containsKey(ids.get(i)) ? 200 : 201)) {
                        fail("bulk index " + ids.get(i) + " status " + status, r);
                    }
                    model.put(ids.get(i), docs.get(i));
                }
            }
        }

        private void index() {
            String id = id();
            ObjectNode d = doc(id);
            EsClient.Reply r = es.put("/soak/_doc/" + id, d.toString());
            counted("index");
            if (r.status() != (model.containsKey(id) ? 200 : 201)) {
                fail("index " + id, r);
            }
            model.put(id, d);
        }

        private void update() {
            String id = id();
            int n = random.nextInt(1000);
            EsClient.Reply r = es.post("/soak/_update/" + id, "{\"doc\":{\"n\":" + n + "}}");
            counted("update");
            ObjectNode d = model.get(id);
            if (d == null) {
                if (r.status() != 404 || !r.errorType().equals("document_missing_exception")) {
                    fail("update of a missing " + id, r);
                }
                return;
            }
            if (r.status() != 200) {
                fail("update " + id, r);
            }
            d.put("n", n);
        }

        private void delete() {
            String id = id();
            EsClient.Reply r = es.delete("/soak/_doc/" + id);
            counted("delete");
            if (r.status() != (model.containsKey(id) ? 200 : 404)) {
                fail("delete " + id, r);
            }
            model.remove(id);
        }

        private void get() {
            String id = id();
            EsClient.Reply r = es.get("/soak/_doc/" + id);
            counted("get");
            ObjectNode d = model.get(id);
            if (d == null ? r.status() != 404 : r.status() != 200 || !r.json().path("_source").equals(d)) {
                fail("get " + id + " expected " + d, r);
            }
        }

        private void mget() {
            List<String> ids = Stream.generate(this::id).limit(5).distinct().toList();
            EsClient.Reply r = es.post("/soak/_mget", "{\"ids\":" + MAPPER.valueToTree(ids) + "}");
            counted("mget");
            if (r.status() != 200) {
                fail("mget", r);
                return;
            }
            JsonNode docs = r.json().path("docs");
            for (int i = 0; i < ids.size(); i++) {
                ObjectNode d = model.get(ids.get(i));
                JsonNode got = docs.get(i);
                if (d == null ? got.path("found").asBoolean() : !got.path("_source").equals(d)) {
                    fail("mget " + ids.get(i) + " expected " + d, r);
                }
            }
        }

        private boolean refresh() {
            EsClient.Reply r = es.post("/soak/_refresh", null);
            if (r.status() != 200) {
                fail("refresh", r);
                return false;
            }
            return true;
        }

        private void count() {
            if (!refresh()) {
                return;
            }
            EsClient.Reply r = es.post("/soak/_count", "{\"query\":{\"term\":{\"client\":\"c" + client + "\"}}}");
            counted("count");
            if (r.status() != 200 || r.json().path("count").asInt() != model.size()) {
                fail("count expected " + model.size(), r);
            }
        }

        private void aggregate() {
            if (!refresh()) {
                return;
            }
            String tag = TAGS[random.nextInt(TAGS.length)];
            EsClient.Reply r = es.post("/soak/_search", "{\"size\":3,\"query\":{\"bool\":{\"filter\":[{\"term\":"
                    + "{\"client\":\"c" + client + "\"}}],\"must\":[{\"match\":{\"text\":\"common\"}}]}},"
                    + "\"sort\":[{\"n\":\"desc\"},{\"key\":\"asc\"}],\"aggs\":{\"sum\":{\"sum\":{\"field\":\"n\"}},"
                    + "\"tags\":{\"terms\":{\"field\":\"tag\"}},\"one\":{\"filter\":{\"term\":{\"tag\":\"" + tag
                    + "\"}}}}}");
            counted("search");
            if (r.status() != 200) {
                fail("search", r);
                return;
            }
            long sum = model.values().stream().mapToLong(d -> d.path("n").asLong()).sum();
            long withTag = model.values().stream().filter(d -> d.path("tag").asText().equals(tag)).count();
            JsonNode body = r.json();
            List<String> top = model.entrySet().stream().sorted((a, b) -> {
                int byN = Long.compare(b.getValue().path("n").asLong(), a.getValue().path("n").asLong());
                return byN != 0 ? byN : a.getKey().compareTo(b.getKey());
            }).limit(3).map(Map.Entry::getKey).toList();
            List<String> hits = new ArrayList<>();
            body.at("/hits/hits").forEach(h -> hits.add(h.path("_id").asText()));
            if (body.at("/hits/total/value").asInt() != model.size()
                    || (long) body.at("/aggregations/sum/value").asDouble() != sum
                    || body.at("/aggregations/one/doc_count").asLong() != withTag || !hits.equals(top)) {
                fail("search expected total " + model.size() + ", sum " + sum + ", " + tag + " " + withTag
                        + ", top " + top, r);
            }
        }
    }
}
