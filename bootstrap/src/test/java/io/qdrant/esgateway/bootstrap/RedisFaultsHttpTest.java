package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Valkey/Redis failing under the shared catalog and the shared response cache: stopped, restarted and slowed (the
 * server process paused with SIGSTOP, then resumed) while a client writes and reads. Every answer is right or an
 * Elasticsearch-shaped 503/504 (never a 500, never a wrong answer), every acknowledged write is read back, and the same
 * gateway serves again once the server does, without a restart.
 */
class RedisFaultsHttpTest {

    @Test
    void stoppedRestartedAndSlowedRedisGivesEsShaped503sAndLosesNothing(@TempDir Path dir) throws Exception {
        try (RedisTestServer redis = RedisTestServer.start(true);
             RunningGateway gateway = RunningGateway.start(dir, "QEG_CATALOG", "redis", "QEG_REDIS_URL", redis.url(6),
                     "QEG_RESPONSE_CACHE", "on", "QEG_WARM_UP", "off")) {
            EsClient es = gateway.client;
            assertThat(es.put("/shared").status()).isEqualTo(200);
            Map<String, Integer> acknowledged = new LinkedHashMap<>();
            List<String> wrong = new ArrayList<>();
            int[] counts = new int[3]; // right, 503/504, faults
            int n = 0;
            for (String fault : List.of("stopped", "slowed", "restarted")) {
                AtomicBoolean faulty = new AtomicBoolean(true);
                counts[2]++;
                switch (fault) {
                    case "stopped" -> redis.stop();
                    case "slowed" -> signal(redis.pid(), "-STOP");
                    default -> {
                        redis.stop();
                        redis.restart();
                        faulty.set(false);
                    }
                }
                for (int i = 0; i < 3; i++, n++) {
                    String id = "d" + n;
                    EsClient.Reply write = es.put("/shared/_doc/" + id + "?refresh=true", "{\"v\":" + n + "}");
                    if (ok(write, wrong, counts)) {
                        acknowledged.put(id, n);
                    }
                    EsClient.Reply count = es.get("/shared/_count");
                    if (ok(count, wrong, counts) && count.json().path("count").asInt() < acknowledged.size()) {
                        wrong.add(fault + ": count " + count.json().path("count") + " below the acknowledged "
                                + acknowledged.size());
                    }
                }
                if (fault.equals("stopped")) {
                    redis.restart();
                } else if (fault.equals("slowed")) {
                    signal(redis.pid(), "-CONT");
                }
                // recovery without a restart: within a few seconds the gateway answers right again
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                EsClient.Reply after;
                do {
                    after = es.put("/shared/_doc/after-" + fault + "?refresh=true", "{\"v\":-1}");
                } while (after.status() / 100 != 2 && System.nanoTime() < deadline && sleep());
                assertThat(after.status()).as(fault + " then " + after).isBetween(200, 201);
                acknowledged.put("after-" + fault, -1);
            }
            assertThat(wrong).as("answers that are neither right nor ES-shaped 503/504").isEmpty();
            for (Map.Entry<String, Integer> e : acknowledged.entrySet()) {
                EsClient.Reply got = es.get("/shared/_doc/" + e.getKey());
                assertThat(got.status()).as("acknowledged " + e.getKey() + ", then " + got).isEqualTo(200);
                assertThat(got.json().at("/_source/v").asInt()).isEqualTo(e.getValue());
            }
            EsClient.Reply count = es.get("/shared/_count");
            assertThat(count.json().path("count").asInt()).isGreaterThanOrEqualTo(acknowledged.size());
            System.out.println("[faults] redis: " + counts[2] + " faults (stopped, paused, restarted), " + counts[0]
                    + " right answers, " + counts[1] + " ES-shaped 503/504, " + acknowledged.size()
                    + " acknowledged writes verified, 0 lost");
        }
    }

    private static boolean ok(EsClient.Reply reply, List<String> wrong, int[] counts) {
        if (reply.status() / 100 == 2) {
            counts[0]++;
            return true;
        }
        JsonNode body;
        try {
            body = reply.json();
        } catch (RuntimeException e) {
            wrong.add("not JSON: " + reply);
            return false;
        }
        if ((reply.status() == 503 || reply.status() == 504) && body.path("status").asInt() == reply.status()
                && body.at("/error/type").isTextual()) {
            counts[1]++;
        } else {
            wrong.add(reply.toString());
        }
        return false;
    }

    private static boolean sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return true;
    }

    /** {@code kill -STOP|-CONT pid}: the test's own Redis server only. */
    private static void signal(long pid, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }
}
