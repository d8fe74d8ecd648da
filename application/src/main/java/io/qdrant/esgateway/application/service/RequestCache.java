package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The request cache (Elasticsearch's shard request cache, for the same requests): one index's answer to a
 * {@code size: 0} search, kept for the exact index (uuid, mappings, settings — the whole {@link IndexMetadata}) and
 * request, and served while the index's write generation has not moved since. Only answers that cannot change
 * without a write are cached: a request whose text mentions {@code now} (date math) is never cached, nor an answer cut
 * short by the search's timeout, and nothing of an index created with {@code index.requests.cache.enable: false} is.
 *
 * <p>Publication ticket: the generation is read before the answer is computed and again after; the answer is kept
 * only if both readings agree, so an answer that may have seen part of a concurrent write never outlives it. Every
 * write moves the generation ({@code DocumentService}) before it is acknowledged, so a cached answer never hides an
 * acknowledged write. Least recently used entries go first past {@code maxEntries}.
 */
final class RequestCache<A> {
    private record Key(IndexMetadata index, SearchRequest request) {
    }

    private record Cached<A>(long generation, A answer) {
    }

    private final int maxEntries;
    private final Map<Key, Cached<A>> entries;

    RequestCache(int maxEntries) {
        this.maxEntries = maxEntries;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Cached<A>> eldest) {
                return size() > RequestCache.this.maxEntries;
            }
        };
    }

    /** Whether {@code request} may be cached at all: a {@code size: 0} search without {@code now} in it. */
    static boolean cacheable(SearchRequest request) {
        return request.size() == 0 && request.from() == 0 && request.rrf().isEmpty()
                && !ResponseCaching.Request.textDependsOnNow(request.toString());
    }

    /**
     * The cached answer when {@code generation} has not moved since it was computed; else computes it, and keeps it
     * when the generation did not move meanwhile either.
     */
    A get(IndexMetadata index, SearchRequest request, LongSupplier generation, Supplier<A> compute) {
        if (maxEntries <= 0 || !index.settings().requestCacheEnabled() || !cacheable(request)) {
            return compute.get();
        }
        Key key = new Key(index, request);
        long before = generation.getAsLong();
        Optional<Cached<A>> cached;
        synchronized (entries) {
            cached = Optional.ofNullable(entries.get(key));
        }
        if (cached.isPresent() && cached.get().generation() == before) {
            return cached.get().answer();
        }
        A answer = compute.get();
        // an answer cut short by the search's timeout is partial: never kept
        if (generation.getAsLong() == before && !io.qdrant.esgateway.domain.search.SearchDeadline.timedOutHere()) {
            synchronized (entries) {
                entries.put(key, new Cached<>(before, answer));
            }
        }
        return answer;
    }

    /** Entries held now (for tests). */
    int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
