package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Where a warm hit of the shared response cache spends its time, against the embedded gateway's in-process request
 * cache: two gateways in this JVM (one with the shared catalog and the shared cache in mode {@code on} on a real
 * Redis, one embedded), the bench's {@code terms} search repeated on a kept-alive connection, p50s of alternating
 * rounds; the Redis commands one hit sends (the server's {@code INFO commandstats}) and the server time they take.
 *
 * <p>As a test it checks what a warm hit sends: nothing under a lease (the replica holds the answer and knows its
 * generations current); without one, one pipelined {@code MGET} and {@code HMGET}, no script. As a {@code main} it
 * prints the measurement ({@code java -cp <test class path> io.qdrant.esgateway.bootstrap.SharedHitCostTest [n
 * [lease]]}, lease {@code 1s} unless given, {@code off} for none).
 */
class SharedHitCostTest {
    static final String TERMS = "{'size':0,'track_total_hits':true,'query':{'range':{'price':{'gte':100,'lte':800}}},"
            + "'aggs':{'c':{'terms':{'field':'category','size':20}}}}";

    @Test
    void aWarmHitUnderALeaseSendsNothing() throws Exception {
        try (Setup setup = Setup.start("1s")) {
            setup.shared.search(json(TERMS)); // the miss that publishes
            published(setup, 1);
            for (int i = 0; i < 20; i++) { // until the lease runs and the answer's generations are known
                setup.shared.search(json(TERMS));
                Thread.sleep(50);
            }
            Map<String, Long> before = setup.commands();
            int n = 200;
            for (int i = 0; i < n; i++) {
                setup.shared.search(json(TERMS));
            }
            Map<String, Long> sent = diff(before, setup.commands());
            // no lookup: only the lease's renewals (a script every quarter term) may run meanwhile
            assertThat(sent).as("%s", sent).doesNotContainKeys("mget", "hmget", "get|mget");
            assertThat(sent.getOrDefault("evalsha", 0L) + sent.getOrDefault("eval", 0L)).as("%s", sent)
                    .isLessThan(n / 10);
        }
    }

    @Test
    void aWarmHitWithoutALeaseSendsOnePipelinedReadOfTheGenerationsAndTheEntry() throws Exception {
        try (Setup setup = Setup.start("off")) {
            setup.shared.search(json(TERMS)); // the miss that publishes
            Map<String, Long> before = published(setup, 1);
            int n = 50;
            for (int i = 0; i < n; i++) {
                setup.shared.search(json(TERMS));
            }
            Map<String, Long> sent = diff(before, setup.commands());
            // one pipelined round trip per hit: the generations and the catalog's, then the entry; no script
            assertThat(sent).as("%s", sent).containsOnly(Map.entry("mget", (long) n), Map.entry("hmget", (long) n));
        }
    }

    @Test
    void aMissSendsTheLookupAndThePublicationAndNoOtherCatalogRead() throws Exception {
        // without a lease, whose renewals would add their commands to the count
        try (Setup setup = Setup.start("off")) {
            String body = json(TERMS);
            setup.shared.search(body); // the catalog snapshot is local from now on
            for (int i = 0; i < 5; i++) { // and the connections the overlapped lookups and publications use are open
                setup.shared.search("/bench/_search?_source_excludes=warm_" + i, body);
            }
            Map<String, Long> before = published(setup, 6);
            int n = 20;
            for (int i = 0; i < n; i++) {
                setup.shared.search("/bench/_search?_source_excludes=miss_" + i, body);
            }
            Map<String, Long> sent = diff(before, published(setup, 6 + n));
            // the lookup (generations, catalog generation and epoch; the entry) and the publication script (its
            // commands inside: the generations read again, the entry stored): the computation reuses the catalog view
            // the lookup found current instead of reading the catalog's generation once more. A lookup made while
            // computing and a publication after the answer may need one more pooled connection: a new connection
            // runs the epoch script once (an EVAL reading two keys)
            long connections = sent.getOrDefault("eval", 0L);
            assertThat(connections).as("connections opened").isLessThanOrEqualTo(4);
            Map<String, Long> expected = new LinkedHashMap<>(Map.of("mget", (long) n, "hmget", (long) n,
                    "evalsha", (long) n, "get", 2L * n + 2 * connections, "hset", (long) n, "pexpire", (long) n));
            if (connections > 0) {
                expected.put("eval", connections);
            }
            assertThat(sent).as("%s", sent).isEqualTo(expected);
        }
    }

    @Test
    void aMissUnderALeaseSendsOnlyItsPublication() throws Exception {
        try (Setup setup = Setup.start("1s")) {
            String body = json(TERMS);
            Map<String, Long> before = leasedAndPublished(setup, body, 1);
            int n = 20;
            for (int i = 0; i < n; i++) {
                setup.shared.search("/bench/_search?_source_excludes=miss_" + i, body);
            }
            Map<String, Long> sent = diff(before, published(setup, 20 + n));
            // no lookup: computed on the snapshot the lease knows current, then published (the script checks the
            // generations); only the lease's renewals (EVAL, a script every quarter term) may run besides
            assertThat(sent).as("%s", sent).doesNotContainKeys("mget", "hmget");
            assertThat(sent.get("evalsha")).as("%s", sent).isEqualTo((long) n);
        }
    }

    @Test
    void aFirstMissUnderALeaseSendsNothingWhenAnswersArePublishedOnTheirSecondComputation() throws Exception {
        try (Setup setup = Setup.start("1s", "2")) {
            String body = json(TERMS);
            Map<String, Long> before = leasedAndPublished(setup, body, 2);
            int n = 20;
            for (int i = 0; i < n; i++) {
                setup.shared.search("/bench/_search?_source_excludes=miss_" + i, body);
            }
            Map<String, Long> sent = diff(before, setup.commands());
            // computed on the snapshot the lease knows current, neither looked up nor published; only the lease's
            // renewals (EVAL, a script every quarter term) may run besides
            assertThat(sent).as("%s", sent).doesNotContainKeys("mget", "hmget", "evalsha");
            for (int i = 0; i < n; i++) { // the second computation of each publishes it
                setup.shared.search("/bench/_search?_source_excludes=miss_" + i, body);
            }
            Map<String, Long> second = diff(before, published(setup, 20 + n));
            assertThat(second.get("evalsha")).as("%s", second).isEqualTo((long) n);
        }
    }

    /**
     * Sends 20 searches {@code times} each, 20 ms apart, so the lease runs and the generations and the catalog's are
     * known, and 20 answers are published; returns the server's command counts then.
     */
    private static Map<String, Long> leasedAndPublished(Setup setup, String body, int times) throws Exception {
        for (int i = 0; i < 20; i++) {
            for (int k = 0; k < times; k++) {
                setup.shared.search("/bench/_search?_source_excludes=warm_" + i, body);
            }
            Thread.sleep(20);
        }
        return published(setup, 20);
    }

    /** The server's command counts once the shared gateway has published {@code n} answers (after answering). */
    private static Map<String, Long> published(Setup setup, long n) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        Pattern publish = Pattern.compile("qeg_response_cache_total\\{[^}]*outcome=\"publish\"[^}]*} ([0-9.E]+)");
        while (System.nanoTime() < deadline) {
            Matcher m = publish.matcher(setup.sharedGateway().client.get("/metrics").body());
            if (m.find() && (long) Double.parseDouble(m.group(1)) >= n) {
                return setup.commands();
            }
            Thread.sleep(5);
        }
        String counts = setup.sharedGateway().client.get("/metrics").body().lines()
                .filter(l -> l.startsWith("qeg_response_cache_total")).collect(java.util.stream.Collectors.joining("; "));
        throw new AssertionError("not published: " + n + " answers within 10 s; " + counts);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        try (Setup setup = Setup.start(args.length > 1 ? args[1] : "1s")) {
            String body = json(TERMS);
            for (int i = 0; i < 3000; i++) { // both warmed up (compiled) before measuring
                setup.shared.search(body);
                setup.embedded.search(body);
            }
            Map<String, Long> before = setup.commands();
            Map<String, Long> usecBefore = setup.commandMicros();
            long[][] warm = alternating(n, i -> setup.shared.search(body), i -> setup.embedded.search(body));
            long[] shared = warm[0];
            long[] embedded = warm[1];
            Map<String, Long> sent = diff(before, setup.commands());
            Map<String, Long> micros = diff(usecBefore, setup.commandMicros());
            System.out.printf(Locale.ROOT, "warm terms hit, n=%d: shared p50 %.1f us (p90 %.1f), embedded p50 %.1f us"
                    + " (p90 %.1f)%n", n, pct(shared, 50), pct(shared, 90), pct(embedded, 50), pct(embedded, 90));
            System.out.println("redis commands per shared hit: " + perRequest(sent, n) + "; server time per hit: "
                    + perRequest(micros, n) + " us");
            // cold: a new cache key on every search (a _source_excludes no document has), so the shared gateway looks
            // up, misses, computes and publishes, and the embedded one computes (its request cache misses as well)
            before = setup.commands();
            long[][] cold = alternating(n, i -> setup.shared.search("/bench/_search?_source_excludes=cold_s" + i, body),
                    i -> setup.embedded.search("/bench/_search?_source_excludes=cold_e" + i, body));
            long[] sharedCold = cold[0];
            long[] embeddedCold = cold[1];
            System.out.printf(Locale.ROOT, "cold terms search, n=%d: shared p50 %.1f us (p90 %.1f), embedded p50 %.1f"
                    + " us (p90 %.1f); redis commands per shared search: %s%n", n, pct(sharedCold, 50),
                    pct(sharedCold, 90), pct(embeddedCold, 50), pct(embeddedCold, 90),
                    perRequest(diff(before, setup.commands()), n));
            // one lookup round trip alone (a published 1 KiB entry), from a platform thread and a virtual thread
            try (var cache = io.qdrant.esgateway.adapter.out.cache.redis.RedisResponseCaches.open(
                    new io.qdrant.esgateway.adapter.out.cache.redis.RedisResponseCaches.Settings(
                            java.net.URI.create(setup.redis().url()), "cost:", java.time.Duration.ofMinutes(5), 1 << 20,
                            4, java.time.Duration.ofSeconds(5)))) {
                java.util.List<String> indices = java.util.List.of("uuid-cost");
                cache.publish(cache.lookup("k", indices).ticket(), new byte[1024]);
                long[] platform = new long[n];
                long[] virtual = new long[n];
                long[] handedOff = new long[n];
                java.util.concurrent.ExecutorService io = java.util.concurrent.Executors.newFixedThreadPool(2);
                for (int round = 0; round < 2; round++) {
                    Thread.ofVirtual().start(() -> {
                        for (int i = 0; i < n; i++) {
                            long t0 = System.nanoTime();
                            try {
                                io.submit(() -> cache.lookup("k", indices)).get();
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            handedOff[i] = System.nanoTime() - t0;
                        }
                    }).join();
                    for (int i = 0; i < n; i++) {
                        long t0 = System.nanoTime();
                        cache.lookup("k", indices);
                        platform[i] = System.nanoTime() - t0;
                    }
                    Thread vt = Thread.ofVirtual().start(() -> {
                        for (int i = 0; i < n; i++) {
                            long t0 = System.nanoTime();
                            cache.lookup("k", indices);
                            virtual[i] = System.nanoTime() - t0;
                        }
                    });
                    vt.join();
                }
                io.shutdown();
                System.out.printf(Locale.ROOT, "one lookup round trip: platform thread p50 %.1f us, virtual thread"
                        + " p50 %.1f us, virtual thread handing it to a platform thread p50 %.1f us%n",
                        pct(platform, 50), pct(virtual, 50), pct(handedOff, 50));
            }
        }
    }

    /** One timed search: the {@code i}-th of its kind. */
    private interface TimedSearch {
        long run(int i) throws IOException;
    }

    /**
     * {@code n} searches of each kind, in alternating rounds of 100 (so both share the machine's noise): their
     * times, {@code a}'s first.
     */
    private static long[][] alternating(int n, TimedSearch a, TimedSearch b) throws IOException {
        long[][] times = new long[2][n];
        for (int round = 0; round < n / 100; round++) {
            for (int i = round * 100; i < round * 100 + 100; i++) {
                times[0][i] = a.run(i);
            }
            for (int i = round * 100; i < round * 100 + 100; i++) {
                times[1][i] = b.run(i);
            }
        }
        return times;
    }

    private static Map<String, Double> perRequest(Map<String, Long> totals, int n) {
        Map<String, Double> out = new LinkedHashMap<>();
        totals.forEach((k, v) -> out.put(k, Math.round(v * 100.0 / n) / 100.0));
        return out;
    }

    private static double pct(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1000.0;
    }

    private static Map<String, Long> diff(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0 && !k.equals("info")) {
                out.put(k, d);
            }
        });
        return out;
    }

    /** Redis, the two gateways, the index loaded on both. */
    record Setup(RedisTestServer redis, Path dir, RunningGateway sharedGateway, RunningGateway embeddedGateway,
                 RawClient shared, RawClient embedded) implements AutoCloseable {
        /** Publishing every computed answer ({@code QEG_RESPONSE_CACHE_MIN_USES} 1). */
        static Setup start(String lease) throws IOException {
            return start(lease, "1");
        }

        /**
         * @param lease    the shared gateway's {@code QEG_RESPONSE_CACHE_LEASE}
         * @param minUses its {@code QEG_RESPONSE_CACHE_MIN_USES}
         */
        static Setup start(String lease, String minUses) throws IOException {
            RedisTestServer redis = RedisTestServer.start();
            Path dir = Files.createTempDirectory("qeg-hit-cost-");
            RunningGateway s = RunningGateway.start(dir.resolve("shared"), "QEG_CATALOG", "redis", "QEG_REDIS_URL",
                    redis.url(), "QEG_RESPONSE_CACHE", "on", "QEG_RESPONSE_CACHE_LEASE", lease, "QEG_WARM_UP", "off",
                    "QEG_RESPONSE_CACHE_MIN_USES", minUses);
            RunningGateway e = RunningGateway.start(dir.resolve("embedded"), "QEG_WARM_UP", "off");
            for (RunningGateway g : new RunningGateway[] {s, e}) {
                g.client.put("/bench", json("{'mappings':{'properties':{'category':{'type':'keyword'},"
                        + "'price':{'type':'integer'}}}}"));
                StringBuilder bulk = new StringBuilder();
                for (int i = 0; i < 2000; i++) {
                    bulk.append("{\"index\":{\"_id\":\"").append(i).append("\"}}\n{\"category\":\"c")
                            .append(i % 20).append("\",\"price\":").append(1 + (i * 37) % 1000).append("}\n");
                }
                g.client.send("POST", "/bench/_bulk?refresh=true", bulk.toString(), "application/x-ndjson");
            }
            return new Setup(redis, dir, s, e, new RawClient(s.gateway.port()), new RawClient(e.gateway.port()));
        }

        /** {@code INFO commandstats}: calls per command. */
        Map<String, Long> commands() {
            return stats("calls");
        }

        /** {@code INFO commandstats}: microseconds per command, in total. */
        Map<String, Long> commandMicros() {
            return stats("usec");
        }

        private Map<String, Long> stats(String field) {
            Map<String, Long> out = new LinkedHashMap<>();
            Matcher m = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+),usec=(\\d+)")
                    .matcher(redis.bulk("INFO", "commandstats"));
            while (m.find()) {
                out.put(m.group(1), Long.parseLong(field.equals("calls") ? m.group(2) : m.group(3)));
            }
            return out;
        }

        @Override
        public void close() throws IOException {
            shared.close();
            embedded.close();
            sharedGateway.close();
            embeddedGateway.close();
            redis.close();
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** HTTP/1.1 on one kept-alive socket, as the bench's runner sends: the time from writing to the last byte. */
    static final class RawClient implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        RawClient(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        long search(String body) throws IOException {
            return search("/bench/_search", body);
        }

        long search(String path, String body) throws IOException {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            long start = System.nanoTime();
            out.write(head);
            out.write(b);
            out.flush();
            int length = -1;
            int status = -1;
            StringBuilder line = new StringBuilder();
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c == '\n') {
                    String l = line.toString().trim();
                    line.setLength(0);
                    if (l.isEmpty()) {
                        break;
                    }
                    if (status < 0) {
                        status = Integer.parseInt(l.split(" ")[1]);
                    } else if (l.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(l.substring(15).trim());
                    }
                } else {
                    line.append((char) c);
                }
            }
            byte[] answer = length >= 0 ? in.readNBytes(length) : chunked();
            long took = System.nanoTime() - start;
            if (status != 200) {
                throw new IOException(status + " " + new String(answer, StandardCharsets.UTF_8));
            }
            return took;
        }

        private byte[] chunked() throws IOException {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            while (true) {
                int size = Integer.parseInt(readLine(), 16);
                if (size == 0) {
                    readLine();
                    return body.toByteArray();
                }
                body.write(in.readNBytes(size));
                readLine();
            }
        }

        private String readLine() throws IOException {
            return RedisTestServer.readLine(in);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
