package io.qdrant.esgateway.adapter.out.catalog.redis;

import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * A process that takes an index's write turn and keeps it, as a replica stopped in the middle of a write would:
 * {@code WriteTurnHolder <redis url> <prefix> <index name>} prints {@code HELD} once the turn is its own, then
 * sleeps until it is killed.
 */
public final class WriteTurnHolder {
    private WriteTurnHolder() {
    }

    public static void main(String[] args) throws InterruptedException {
        RedisCatalog catalog = RedisCatalog.open(new RedisCatalogs.Settings(URI.create(args[0]), args[1],
                Duration.ofSeconds(2), 4));
        IndexMetadata index = new IndexMetadata(args[2], "uuid-" + args[2], Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.EMPTY);
        catalog.writeTurn(index, 1, () -> -1).orElseThrow();
        System.out.println("HELD");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
