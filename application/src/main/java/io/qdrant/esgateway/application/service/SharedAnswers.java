package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The shared response cache in front of the read services. An entry's key is a hash of the normalised request, the
 * target and the catalog state it resolved against (the catalog version and the uuids of the indices it reads), so a
 * catalog change (alias swap, new mapping, deleted index) leaves every older entry unreachable for the requests that
 * start after it; the data generations of those indices make the {@link SharedResponseCache.Ticket}, so a write
 * does the same for what it touched. A request whose text mentions {@code now} is never cached (the request cache's
 * rule, {@link #dependsOnNow}). When the cache's server fails, reads are computed and answered without it (a
 * computed answer is always current); writes fail instead ({@link DocumentService}).
 */
public final class SharedAnswers implements ResponseCaching {
    private static final System.Logger LOG = System.getLogger(SharedAnswers.class.getName());

    private final Catalog catalog;
    private final SharedResponseCache cache;
    private final Mode mode;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder published = new LongAdder();
    private final LongAdder stale = new LongAdder();
    private final LongAdder tooLarge = new LongAdder();
    private final LongAdder uncacheable = new LongAdder();
    private final LongAdder errors = new LongAdder();

    /** @param mode {@link Mode#ON} or {@link Mode#COORDINATE} ({@link ResponseCaching#OFF} is the off mode) */
    public SharedAnswers(Catalog catalog, SharedResponseCache cache, Mode mode) {
        if (mode == Mode.OFF) {
            throw new IllegalArgumentException("the off mode is ResponseCaching.OFF");
        }
        this.catalog = catalog;
        this.cache = cache;
        this.mode = mode;
    }

    /** Whether an answer may depend on the time it is computed at: its request mentions {@code now} (date math). */
    static boolean dependsOnNow(String request) {
        return request.contains("now");
    }

    @Override
    public Mode mode() {
        return mode;
    }

    @Override
    public <A> A read(String target, CatalogView.Options options, String request, Supplier<A> compute,
                      Codec<A> codec) {
        if (dependsOnNow(request) || dependsOnNow(target)) {
            uncacheable.increment();
            return compute.get();
        }
        Checked checked;
        try {
            checked = pinnedLookup(target, options, request);
        } catch (GatewayException e) {
            errors.increment();
            LOG.log(System.Logger.Level.DEBUG, "response cache lookup failed; answering without it", e);
            return compute.get();
        }
        if (checked == null) {
            List<IndexMetadata> indices;
            CatalogView view;
            try {
                view = catalog.view();
                indices = view.resolveOpen(target, options);
            } catch (GatewayException e) {
                // the read fails the same way when it runs: its error is its answer, never cached
                uncacheable.increment();
                return compute.get();
            }
            if (!cacheable(indices)) {
                uncacheable.increment();
                return compute.get();
            }
            List<String> uuids = uuids(indices);
            try {
                checked = new Checked(cache.lookup(key(target, options, view.version(), uuids, request), uuids), view);
            } catch (GatewayException e) {
                errors.increment();
                LOG.log(System.Logger.Level.DEBUG, "response cache lookup failed; answering without it", e);
                return compute.get();
            }
        }
        SharedResponseCache.Lookup lookup = checked.lookup();
        if (lookup.answer().isPresent()) {
            hits.increment();
            if (mode == Mode.ON) {
                return codec.decode(lookup.answer().get());
            }
            // coordinate: computed, not served; the entry is current under this very ticket, so publishing the
            // recomputed answer again would only rewrite it (and reset its TTL)
            return computeOn(checked.view(), compute);
        }
        misses.increment();
        A answer = computeOn(checked.view(), compute);
        Optional<byte[]> bytes = codec.encode(answer);
        if (bytes.isEmpty()) {
            uncacheable.increment();
            return answer;
        }
        try {
            switch (cache.publish(lookup.ticket(), bytes.get())) {
                case PUBLISHED -> published.increment();
                case STALE_TICKET -> stale.increment();
                case TOO_LARGE -> tooLarge.increment();
            }
        } catch (GatewayException e) {
            errors.increment();
            LOG.log(System.Logger.Level.DEBUG, "response cache publish failed", e);
        }
        return answer;
    }

    /** A lookup and the catalog view it was made against, found current after the request started. */
    private record Checked(SharedResponseCache.Lookup lookup, CatalogView view) {
    }

    /**
     * {@code compute} with {@code view} as the request's {@link Catalog#CHECKED} view: the lookup's round trip already
     * found it current, so the computation's catalog reads need not ask the server again.
     */
    private static <A> A computeOn(CatalogView view, Supplier<A> compute) {
        return ScopedValue.where(Catalog.CHECKED, view).call(compute::get);
    }

    /**
     * The lookup against this replica's local catalog snapshot, with the check that the snapshot is current made in
     * the same round trip ({@link SharedResponseCache#lookupIf}); null when there is no snapshot, the check failed,
     * or the snapshot cannot decide (the target does not resolve, an index is not cacheable on it): the caller then
     * reads the catalog first.
     */
    private Checked pinnedLookup(String target, CatalogView.Options options, String request) {
        Optional<Catalog.Pinned> pinned = catalog.pinned();
        if (pinned.isEmpty()) {
            return null;
        }
        List<IndexMetadata> indices;
        try {
            indices = pinned.get().view().resolveOpen(target, options);
        } catch (GatewayException e) {
            return null;
        }
        if (!cacheable(indices)) {
            return null;
        }
        List<String> uuids = uuids(indices);
        String key = key(target, options, pinned.get().view().version(), uuids, request);
        return cache.lookupIf(key, uuids, pinned.get().keys(), pinned.get().values())
                .map(lookup -> new Checked(lookup, pinned.get().view())).orElse(null);
    }

    private static boolean cacheable(List<IndexMetadata> indices) {
        for (IndexMetadata index : indices) {
            if (!index.settings().requestCacheEnabled()) {
                return false;
            }
        }
        return true;
    }

    private static List<String> uuids(List<IndexMetadata> indices) {
        List<String> uuids = new ArrayList<>(indices.size());
        indices.forEach(i -> uuids.add(i.uuid()));
        return uuids;
    }

    @Override
    public Counts counts() {
        return new Counts(hits.sum(), misses.sum(), published.sum(), stale.sum(), tooLarge.sum(), uncacheable.sum(),
                errors.sum());
    }

    /** SHA-256 of everything the answer depends on besides the data generations. */
    static String key(String target, CatalogView.Options options, long catalogVersion, List<String> uuids,
                      String request) {
        StringBuilder text = new StringBuilder(request.length() + 128).append(target).append('\u0000')
                .append(options).append('\u0000')
                .append(catalogVersion).append('\u0000');
        uuids.forEach(u -> text.append(u).append(','));
        text.append('\u0000').append(request);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
