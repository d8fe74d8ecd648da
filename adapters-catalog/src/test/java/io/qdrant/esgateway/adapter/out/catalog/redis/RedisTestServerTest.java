package io.qdrant.esgateway.adapter.out.catalog.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RedisTestServerTest {

    @Test
    void persistentServerKeepsItsDataAcrossAKillAndRestart() {
        try (RedisTestServer server = RedisTestServer.start(true)) {
            assertEquals("+OK", server.command("SET", "k", "v"));
            long first = server.pid();
            server.kill();
            assertFalse(server.running());
            server.restart();
            assertTrue(server.running());
            assertTrue(first != server.pid());
            assertEquals("$1", server.command("GET", "k"));
        }
    }

    @Test
    void serverWithoutPersistenceStartsEmptyAfterARestart() {
        try (RedisTestServer server = RedisTestServer.start()) {
            assertEquals("+OK", server.command("SET", "k", "v"));
            server.restart();
            assertEquals("$-1", server.command("GET", "k"));
        }
    }

    @Test
    void bulkReadsTheWholeBulkStringReply() {
        try (RedisTestServer server = RedisTestServer.start()) {
            String value = "a\r\nb".repeat(20_000);
            assertEquals("+OK", server.command("SET", "k", value));
            assertEquals(value, server.bulk("GET", "k"));
            assertNull(server.bulk("GET", "missing"));
            assertTrue(server.bulk("INFO", "commandstats").contains("cmdstat_set:calls=1,"));
            assertThrows(IllegalStateException.class, () -> server.bulk("SET", "k", "v"));
        }
    }
}
