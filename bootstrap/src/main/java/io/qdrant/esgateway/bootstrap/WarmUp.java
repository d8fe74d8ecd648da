package io.qdrant.esgateway.bootstrap;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The JIT warm-up a gateway on the embedded store runs right after it starts ({@code QEG_WARM_UP}, on by default):
 * a private gateway — its own catalog and Lucene store in a temporary directory, its own loopback port, nothing
 * shared with the real one but the JVM — is sent a fixed synthetic workload over HTTP (bulk loads, refreshes, point
 * reads, sorted and cursor pages, aggregations, full-text queries), then stopped and its directory deleted.
 *
 * <p>Why: the HotSpot JIT compiles a method only once it has run often enough, and on a small machine its single
 * optimising compiler thread works through that queue while requests wait for the CPU. A fresh gateway needed ~10
 * bulk loads of 10,000 documents before its {@code _bulk} path ran compiled (1.3 s for the first load, 0.19 s for the
 * tenth); the warm-up pays that in the seconds after start instead of during the first real loads. The answers the
 * real gateway gives are not touched: the warm-up sees none of its indices and it sees none of the warm-up's.
 *
 * <p>It runs on one daemon platform thread and gives up at the first failure (logged, never fatal): a gateway that
 * could not warm up is still a working gateway.
 */
final class WarmUp {
    /** Documents per {@code _bulk}, as the common clients batch them. */
    static final int BATCH = 1_000;
    private static final String INDEX = "warm-up";
    private static final String[] WORDS = ("search engine index query vector document field keyword text score "
            + "shard replica cluster node segment merge refresh flush commit translog bulk update delete create "
            + "mapping analyzer token filter range term match phrase boolean nested object array date number "
            + "price rank title description category brand color size stock order customer ticket job article "
            + "blue green red small large fast slow new old open closed high low first last main other").split(" ");

    private final int rounds;
    private final int docsPerRound;
    private final Path parent;
    private volatile boolean stopping;
    private volatile Thread thread;
    private final System.Logger log = System.getLogger(WarmUp.class.getName());

    /** What one warm-up did: requests sent (all answered 2xx) and its wall time. */
    record Report(int requests, int documents, long millis) {
    }

    /**
     * @param rounds       how many times the whole workload runs (each on a fresh index)
     * @param docsPerRound documents bulk-loaded per round, a multiple of {@link #BATCH}
     * @param parent       where the temporary directory is made
     */
    WarmUp(int rounds, int docsPerRound, Path parent) {
        if (rounds < 1 || docsPerRound < BATCH || docsPerRound % BATCH != 0) {
            throw new IllegalArgumentException("rounds >= 1 and documents per round a multiple of " + BATCH);
        }
        this.rounds = rounds;
        this.docsPerRound = docsPerRound;
        this.parent = parent;
    }

    /** The shipped size: 10 rounds of 10,000 documents (10-13 s on 2 busy cores), in the system's temp directory. */
    static WarmUp standard() {
        return new WarmUp(10, 10_000, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Starts {@link #run} on a daemon thread; its outcome is printed to standard output. */
    WarmUp startInBackground() {
        Thread t = Thread.ofPlatform().daemon(true).name("qeg-warm-up").unstarted(() -> {
            try {
                Report r = run();
                System.out.printf(Locale.ROOT, "qeg: JIT warm-up done: %,d requests, %,d documents in %d ms%n",
                        r.requests(), r.documents(), r.millis());
            } catch (Stopped e) {
                System.out.println("qeg: JIT warm-up stopped");
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.WARNING, "JIT warm-up stopped early (the gateway is not affected)", e);
            }
        });
        thread = t;
        t.start();
        return this;
    }

    /**
     * Stops a running warm-up at its next request and waits (at most {@code millis}) for its private gateway to be
     * closed and its directory deleted — called before the process exits, so nothing is left in the temp directory.
     */
    void stop(long millis) {
        stopping = true;
        Thread t = thread;
        if (t != null) {
            try {
                t.join(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Thrown inside the warm-up when {@link #stop} was called. */
    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("the warm-up was stopped", null, false, false);
        }
    }

    /** Runs the whole warm-up on a private gateway and removes it; throws at the first answer that is not 2xx. */
    Report run() {
        long t0 = System.nanoTime();
        Path dir;
        try {
            dir = Files.createTempDirectory(parent, "qeg-warm-up-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the warm-up's temporary directory", e);
        }
        int requests = 0;
        try {
            GatewayConfig config = GatewayConfig.load(new String[0], Map.of("QEG_HOST", "127.0.0.1", "QEG_PORT", "0",
                    "QEG_DATA_DIR", dir.toString(), "QEG_BACKEND", "lucene", "QEG_NODE_NAME", "warm-up",
                    "QEG_WARM_UP", "off", "QEG_CONFIG_DIR",
                    // the process's analysis files stay the serving gateway's
                    io.qdrant.esgateway.adapter.out.lucene.LuceneStores.analysisFiles().toString()));
            try (Gateway gateway = Gateway.start(config); Client client = new Client(gateway.port(), () -> stopping)) {
                SplittableRandom random = new SplittableRandom(20261130);
                for (int round = 0; round < rounds; round++) {
                    requests += round(client, random);
                }
            }
        } finally {
            deleteTree(dir);
        }
        return new Report(requests, rounds * docsPerRound, (System.nanoTime() - t0) / 1_000_000);
    }

    private int round(Client client, SplittableRandom random) {
        int sent = 0;
        client.send("DELETE", "/" + INDEX, null, 404);
        client.send("PUT", "/" + INDEX, MAPPING, 0);
        sent += 2;
        for (int from = 0; from < docsPerRound; from += BATCH) {
            client.send("POST", "/_bulk", bulkBody(from, random), 0);
            sent++;
        }
        client.send("POST", "/" + INDEX + "/_refresh", null, 0);
        client.send("POST", "/" + INDEX + "/_count", "{}", 0);
        sent += 2;
        for (int q = 0; q < 20; q++) {
            for (String body : searches(random)) {
                client.send("POST", "/" + INDEX + "/_search", body, 0);
                sent++;
            }
            client.send("GET", "/" + INDEX + "/_doc/d" + random.nextInt(docsPerRound), null, 0);
            client.send("POST", "/" + INDEX + "/_doc/d" + random.nextInt(docsPerRound) + "?refresh=true",
                    document(random.nextInt(docsPerRound), random), 0);
            sent += 2;
        }
        return sent;
    }

    private static final String MAPPING = """
            {"mappings":{"properties":{"title":{"type":"text"},"body":{"type":"text"},\
            "tag":{"type":"keyword"},"rank":{"type":"integer"},"count":{"type":"long"},\
            "price":{"type":"double"},"on":{"type":"date"},"open":{"type":"boolean"}}}}""";

    private String bulkBody(int from, SplittableRandom random) {
        StringBuilder b = new StringBuilder(BATCH * 400);
        for (int i = from; i < from + BATCH; i++) {
            b.append("{\"index\":{\"_index\":\"").append(INDEX).append("\",\"_id\":\"d").append(i).append("\"}}\n");
            b.append(document(i, random)).append('\n');
        }
        return b.toString();
    }

    private static String document(int i, SplittableRandom random) {
        return "{\"title\":\"" + words(random, 3 + random.nextInt(5)) + "\",\"body\":\""
                + words(random, 20 + random.nextInt(30)) + "\",\"tag\":\"t" + random.nextInt(20) + "\",\"rank\":" + i
                + ",\"count\":" + random.nextLong(1L << 40) + ",\"price\":" + random.nextInt(100_000) / 100.0
                + ",\"on\":\"2026-" + String.format(Locale.ROOT, "%02d-%02d", 1 + random.nextInt(12),
                1 + random.nextInt(28)) + "T10:00:00Z\",\"open\":" + random.nextBoolean() + "}";
    }

    private static String words(SplittableRandom random, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(k == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return b.toString();
    }

    /** One of each common search shape, with random values. */
    private static List<String> searches(SplittableRandom random) {
        String tag = "\"t" + random.nextInt(20) + "\"";
        int low = random.nextInt(800) * 100;
        String filter = "{\"bool\":{\"filter\":[{\"term\":{\"tag\":" + tag + "}},{\"range\":{\"price\":{\"gte\":"
                + low / 100 + ",\"lt\":" + (low / 100 + 300) + "}}}]}}";
        List<String> out = new ArrayList<>();
        out.add("{\"query\":" + filter + ",\"sort\":[{\"price\":\"desc\"},{\"rank\":\"asc\"}],\"size\":20,"
                + "\"track_total_hits\":true}");
        out.add("{\"query\":" + filter + ",\"sort\":[{\"price\":\"desc\"},{\"rank\":\"asc\"}],\"size\":20,"
                + "\"search_after\":[" + (low / 100 + 150) + "," + random.nextInt(1000) + "]}");
        out.add("{\"size\":0,\"query\":{\"range\":{\"rank\":{\"gte\":" + random.nextInt(5000) + "}}},"
                + "\"aggs\":{\"tags\":{\"terms\":{\"field\":\"tag\",\"size\":10}}}}");
        out.add("{\"size\":0,\"track_total_hits\":true,\"query\":{\"term\":{\"open\":true}},\"aggs\":{\"f\":{"
                + "\"filters\":{\"filters\":{\"a\":{\"term\":{\"tag\":" + tag + "}},\"b\":{\"range\":{\"price\":{"
                + "\"lt\":" + low / 100 + "}}}}}},\"h\":{\"date_histogram\":{\"field\":\"on\","
                + "\"calendar_interval\":\"month\"}},\"s\":{\"stats\":{\"field\":\"price\"}}}}");
        out.add("{\"query\":{\"match\":{\"body\":\"" + words(random, 2) + "\"}},\"size\":10}");
        out.add("{\"query\":{\"bool\":{\"must\":[{\"match\":{\"title\":\"" + words(random, 1) + "\"}}],"
                + "\"filter\":[{\"term\":{\"open\":false}}]}},\"_source\":[\"title\",\"rank\"],\"size\":10}");
        return out;
    }

    /** A keep-alive HTTP/1.1 client on one loopback socket (the JDK's HttpClient would warm itself, not us). */
    private static final class Client implements AutoCloseable {
        private final java.util.function.BooleanSupplier stopping;
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Client(int port, java.util.function.BooleanSupplier stopping) {
            this.stopping = stopping;
            try {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(60_000);
                out = socket.getOutputStream();
                in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot connect to the warm-up gateway", e);
            }
        }

        /** Sends one request; an answer other than 2xx (or {@code alsoOk}) fails the warm-up, naming it. */
        void send(String method, String path, String body, int alsoOk) {
            if (stopping.getAsBoolean()) {
                throw new Stopped();
            }
            try {
                byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
                String type = path.endsWith("_bulk") ? "application/x-ndjson" : "application/json";
                out.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type
                        + "\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(bytes);
                out.flush();
                int status = readResponse();
                if (status / 100 != 2 && status != alsoOk) {
                    throw new IllegalStateException("warm-up request " + method + " " + path + " answered " + status);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("warm-up request " + method + " " + path + " failed", e);
            }
        }

        private int readResponse() throws IOException {
            String statusLine = line();
            String[] parts = statusLine.split(" ");
            if (parts.length < 2) {
                throw new IOException("not an HTTP status line: " + statusLine);
            }
            int status = Integer.parseInt(parts[1]);
            long length = -1;
            boolean chunked = false;
            for (String h = line(); !h.isEmpty(); h = line()) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(lower.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            if (chunked) {
                for (long size = Long.parseLong(line().split(";")[0].trim(), 16); size > 0;
                     size = Long.parseLong(line().split(";")[0].trim(), 16)) {
                    in.skipNBytes(size);
                    line();
                }
                line();
            } else if (length > 0) {
                in.skipNBytes(length);
            }
            return status;
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(64);
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the warm-up gateway closed the connection");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a loopback socket
            }
        }
    }

    private static void deleteTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            System.getLogger(WarmUp.class.getName()).log(System.Logger.Level.WARNING,
                    "could not delete the warm-up's directory " + dir, e);
        }
    }
}
