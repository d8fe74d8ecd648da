package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.security.Authentication;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who opened each scroll and point in time of this gateway while security is on. As Elasticsearch, only that user
 * (the same name in the same realm) or API key may continue, search with or clear it; to anyone else the context
 * does not exist (404 {@code search_context_missing_exception}; a clear frees nothing). Contexts stay in the process
 * that opened them, and so does this record; an entry is kept a while past its context's keep-alive, and an id it
 * does not know is left to the store to answer.
 */
final class ContextOwners {
    /** The record of the gateway serving the current request (bound with {@link AccessControl#CALLER}). */
    static final ScopedValue<ContextOwners> CURRENT = ScopedValue.newInstance();

    /** How long past its keep-alive an entry outlives its context (which the store expires first). */
    private static final long MARGIN_NANOS = Duration.ofMinutes(5).toNanos();

    private record Owner(String key, long keptUntil) {
    }

    private final Map<String, Owner> owners = new ConcurrentHashMap<>();

    private static String key(Authentication who) {
        return who.apiKey().map(k -> "api_key:" + k.id()).orElse("user:" + who.realm() + ":" + who.username());
    }

    private static Authentication caller() {
        return AccessControl.CALLER.isBound() && CURRENT.isBound() ? AccessControl.CALLER.get() : null;
    }

    /** Records the current caller as the owner of {@code id}, for {@code keepAlive} (renewed on each use). */
    static void opened(String id, Duration keepAlive) {
        Authentication who = caller();
        if (who != null && id != null) {
            CURRENT.get().record(id, key(who), keepAlive);
        }
    }

    /** Whether the current caller may use {@code id}: security off, an id this record does not know, or its owner. */
    static boolean mayUse(String id) {
        Authentication who = caller();
        if (who == null) {
            return true;
        }
        Owner owner = CURRENT.get().owners.get(id);
        return owner == null || owner.key().equals(key(who));
    }

    /** Forgets {@code id} (its context was freed). */
    static void closed(String id) {
        if (CURRENT.isBound()) {
            CURRENT.get().owners.remove(id);
        }
    }

    private void record(String id, String key, Duration keepAlive) {
        long now = System.nanoTime();
        long keep = keepAlive.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : keepAlive.toNanos();
        owners.put(id, new Owner(key, now + keep + MARGIN_NANOS));
        if (owners.size() > 64) {
            for (Iterator<Owner> it = owners.values().iterator(); it.hasNext(); ) {
                if (it.next().keptUntil() - now < 0) {
                    it.remove();
                }
            }
        }
    }
}
