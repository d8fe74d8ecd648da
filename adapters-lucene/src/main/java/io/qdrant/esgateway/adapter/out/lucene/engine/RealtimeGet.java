package io.qdrant.esgateway.adapter.out.lucene.engine;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.*;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.*;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.Acquired;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.Recent;

import io.qdrant.esgateway.domain.document.StoredDocument;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * Real-time GET on one open index: an id written since the last refresh is answered from the index's {@code recent}
 * map (the last write of that id, decoded as a stored document would be), every other id from the current searcher,
 * which holds every write before that refresh. The lookup is validated against {@code recentLock}: if a batch or a
 * refresh changed {@code recent} meanwhile it is done again (after a few tries, holding the read lock), so a GET of
 * several ids never sees half a batch.
 */
public final class RealtimeGet {
    private RealtimeGet() {
    }

    /** The current documents with the {@code wanted} ids, in that order; absent ids are left out. */
    public static Map<String, StoredDocument> get(IndexSlot slot, Set<String> wanted) throws IOException {
        for (int attempt = 0; ; attempt++) {
            boolean locked = attempt >= 3;
            long stamp = locked ? slot.recentLock.readLock() : slot.recentLock.tryOptimisticRead();
            try {
                Map<String, Recent> fromRecent = new HashMap<>();
                Set<String> rest = new LinkedHashSet<>();
                for (String id : wanted) {
                    Recent recent = slot.recent.get(id);
                    if (recent != null) {
                        fromRecent.put(id, recent);
                    } else {
                        rest.add(id);
                    }
                }
                Map<String, StoredDocument> found = Map.of();
                if (!rest.isEmpty()) {
                    try (Acquired acquired = current(slot)) {
                        found = lookup(acquired.reader(), rest);
                    }
                }
                if (!locked && !slot.recentLock.validate(stamp)) {
                    continue;
                }
                Map<String, StoredDocument> ordered = new LinkedHashMap<>();
                for (String id : wanted) {
                    Recent recent = fromRecent.get(id);
                    StoredDocument document = recent == null ? found.get(id)
                            : recent.source() == null ? null
                            : FieldEncoding.decodeForAnswer(id, recent.version(), recent.source(),
                                    java.util.Optional.ofNullable(recent.routing()));
                    if (document != null) {
                        ordered.put(id, document);
                    }
                }
                return ordered;
            } finally {
                if (locked) {
                    slot.recentLock.unlockRead(stamp);
                }
            }
        }
    }
}
