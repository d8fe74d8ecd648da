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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The shared response cache in front of the read services. An entry's key is a hash of the normalised request, the
 * target and the catalog state it resolved against (the catalog version and the uuids of the indices it reads), so a
 * catalog change (alias swap, new mapping, deleted index) leaves every older entry unreachable for the requests that
 * start after it; the data generations of those indices make the {@link SharedResponseCache.Ticket}, so a write
 * does the same for what it touched. A request that mentions {@code now} is never cached (the request cache's rule,
 * {@link Request#dependsOnNow}), nor one that refers to a stored script ({@link Request#dependsOnStoredScripts}).
 * When the cache's server fails, reads are computed and answered without it (a computed answer is always current);
 * writes fail instead ({@link DocumentService}).
 *
 * <p>A request this replica looked up lately (a hit is likely) is looked up first and computed only on a miss. Any
 * other (and every request in {@code coordinate}, which computes them all) is computed on the local catalog snapshot
 * while its lookup runs ({@link #overlapped}); the answer is kept only if the lookup finds the snapshot current. A
 * computed answer is published after the request has it, in the background; a later lookup of the same key on this
 * replica waits for that publication.
 *
 * <p>In {@code on}, a replica also holds the answers the shared cache served it ({@link LocalAnswers}, bounded) with
 * their tickets (not the ones it computed: most are never asked for again, and holding each for a while would make
 * the collector copy them), and answers a request for one without a round trip while the cache knows its generations
 * current ({@link SharedResponseCache#knownGenerations}: a cache with a lease, whose writers wait for this replica to
 * forget a generation before they acknowledge moving it). While it knows them, a request not looked up lately is
 * computed with no lookup at all and published under the known ticket; until it is published, its key is known by 64
 * bits only ({@link Key}), so a request that is never repeated is never hashed.
 *
 * <p>A computed answer is published only once this replica has computed the same key {@code minUses} times lately
 * ({@link RecentUses}; 2 in the gateway by default): most requests are never repeated, and publishing their answers
 * would cost every one of them an encoding and a script call, and fill the cache with entries nobody reads. A request
 * that is repeated is published on its second computation here and served from the cache after that.
 */
public final class SharedAnswers implements ResponseCaching {
    private static final System.Logger LOG = System.getLogger(SharedAnswers.class.getName());
    /** How many keys a replica remembers having looked up (a hint only: a forgotten key is overlapped again). */
    private static final int RECENT_KEYS = 1 << 16;
    /**
     * Publications running in the background at most; past it a request publishes before it answers. Half the
     * gateway's response-cache connections, so lookups always find one free.
     */
    private static final int PUBLICATIONS_IN_FLIGHT = 32;
    /** Decoded answers a replica holds at most ({@link LocalAnswers}), and their encoded size at most. */
    private static final int HELD_ANSWERS = 1024;
    private static final long HELD_BYTES = 4L << 20;
    private static final MessageDigest SHA_256;

    static {
        try {
            SHA_256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
    private final LongAdder notAdmitted = new LongAdder();
    private final Executor background;
    private final KnownGenerations known = new KnownGenerations();
    private final RecentKeys seen = new RecentKeys(RECENT_KEYS);
    private final RecentUses uses = new RecentUses(RECENT_KEYS);
    private final int minUses;
    /** Publications under way, by their keys' bits (a request whose bits agree with one waits for it too). */
    private final Map<Long, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();
    private final Semaphore publications = new Semaphore(PUBLICATIONS_IN_FLIGHT);
    private final LocalAnswers held = new LocalAnswers(HELD_ANSWERS, HELD_BYTES);

    /**
     * Without background work: each lookup and publication runs in the request's own thread, in order (the answers
     * and the cache's contents are the same; only the request's latency differs).
     *
     * @param mode {@link Mode#ON} or {@link Mode#COORDINATE} ({@link ResponseCaching#OFF} is the off mode)
     */
    public SharedAnswers(Catalog catalog, SharedResponseCache cache, Mode mode) {
        this(catalog, cache, mode, Runnable::run);
    }

    /** Publishing every computed answer ({@code minUses} 1). */
    public SharedAnswers(Catalog catalog, SharedResponseCache cache, Mode mode, Executor background) {
        this(catalog, cache, mode, background, 1);
    }

    /**
     * @param background runs a lookup made while the request computes, and publications after the request has its
     *                   answer (a virtual thread each, in the gateway)
     * @param minUses    how many times this replica computes a key's answer before it publishes it: 1 to
     *                   {@value RecentUses#MAX}
     */
    public SharedAnswers(Catalog catalog, SharedResponseCache cache, Mode mode, Executor background, int minUses) {
        if (mode == Mode.OFF) {
            throw new IllegalArgumentException("the off mode is ResponseCaching.OFF");
        }
        if (minUses < 1 || minUses > RecentUses.MAX) {
            throw new IllegalArgumentException("minUses must be 1 to " + RecentUses.MAX + ": " + minUses);
        }
        this.minUses = minUses;
        this.catalog = catalog;
        this.cache = cache;
        this.mode = mode;
        this.background = background;
    }

    @Override
    public Mode mode() {
        return mode;
    }

    @Override
    public <A> A read(String target, CatalogView.Options options, Request request, Supplier<A> compute,
                      Codec<A> codec) {
        if (request.dependsOnNow() || Request.textDependsOnNow(target) || request.dependsOnStoredScripts()) {
            uncacheable.increment();
            return compute.get();
        }
        Planned planned = planned(target, options, request);
        if (planned != null) {
            awaitPublication(planned.key());
            // the generations and the snapshot's catalog values, known current without a round trip (a lease)
            Optional<SharedResponseCache.Generations> knownNow = mode == Mode.ON ? cache.knownGenerations(
                    planned.uuids(), planned.pinned().keys(), planned.pinned().values()) : Optional.empty();
            if (knownNow.isPresent()) {
                Optional<A> current = heldAnswer(planned, knownNow.get(), codec);
                if (current.isPresent()) {
                    return current.get();
                }
                if (!seen.contains(planned.key().bits())) {
                    // outside the cache's failure handling below: the computation's own error is its answer
                    return computedUnderKnownTicket(planned, knownNow.get(), compute, codec);
                }
            }
            SharedResponseCache.Ticket early = mode == Mode.COORDINATE || !seen.contains(planned.key().bits())
                    ? known.ticket(planned.key().text(), planned.uuids()) : null;
            if (early != null) {
                // outside the cache's failure handling below: the computation's own error is its answer
                Optional<A> answer = overlapped(planned, early, compute, codec);
                if (answer.isPresent()) {
                    return answer.get();
                }
                planned = null; // the snapshot is out of date: read the catalog
            }
        }
        Checked checked;
        try {
            Planned current = planned;
            checked = current == null ? null : cache.lookupIf(current.key().text(), current.uuids(),
                    current.pinned().keys(), current.pinned().values())
                    .map(lookup -> new Checked(lookup, current.pinned().view(), current.key())).orElse(null);
        } catch (GatewayException e) {
            return withoutTheCache(e, compute);
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
            Key key = new Key(target, options, view.version(), uuids, request);
            try {
                awaitPublication(key);
                checked = new Checked(cache.lookup(key.text(), uuids), view, key);
            } catch (GatewayException e) {
                return withoutTheCache(e, compute);
            }
        }
        SharedResponseCache.Lookup lookup = checked.lookup();
        remember(lookup.ticket(), checked.key());
        if (lookup.answer().isPresent()) {
            hits.increment();
            if (mode == Mode.ON) {
                byte[] bytes = lookup.answer().get();
                A answer = codec.decode(bytes);
                held.put(new LocalAnswers.Held(checked.key().bits(), lookup.ticket(), answer, codec, bytes.length));
                return answer;
            }
            // coordinate: computed, not served; the entry is current under this very ticket, so publishing the
            // recomputed answer again would only rewrite it (and reset its TTL)
            return computeOn(checked.view(), compute);
        }
        misses.increment();
        A answer = computeOn(checked.view(), compute);
        publish(checked.key(), lookup::ticket, answer, codec);
        return answer;
    }

    /**
     * The lookup and the computation at once, for a request this replica has not looked up lately (or any request in
     * {@code coordinate}, which computes every answer): the lookup runs in the background while the request computes on
     * the local snapshot. {@code early} is the ticket: generations this replica read before the computation started,
     * so an answer computed before a write can only be published while that write's generation move is still to come
     * (the lookup's own generations are read at an instant the computation's reads may precede, so they cannot be the
     * ticket). Empty when the lookup found the snapshot out of date: the answer is dropped and the caller reads
     * again on a current view.
     */
    private <A> Optional<A> overlapped(Planned planned, SharedResponseCache.Ticket early, Supplier<A> compute,
                                       Codec<A> codec) {
        CompletableFuture<Optional<SharedResponseCache.Lookup>> lookup = CompletableFuture.supplyAsync(
                () -> cache.lookupIf(planned.key().text(), planned.uuids(), planned.pinned().keys(),
                        planned.pinned().values()), background);
        A answer = null;
        RuntimeException failed = null;
        try {
            answer = computeOn(planned.pinned().view(), compute);
        } catch (RuntimeException e) {
            failed = e;
        }
        Optional<SharedResponseCache.Lookup> found;
        try {
            found = join(lookup);
        } catch (GatewayException e) {
            // the snapshot is unchecked: computed again on the catalog's own view
            return Optional.of(withoutTheCache(e, compute));
        }
        if (found.isEmpty()) {
            return Optional.empty();
        }
        remember(found.get().ticket(), planned.key());
        if (failed != null) {
            // the snapshot was current: the computation's error is the request's answer
            throw failed;
        }
        if (found.get().answer().isPresent()) {
            hits.increment();
            return Optional.of(answer);
        }
        misses.increment();
        if (early.equals(found.get().ticket())) { // same key, indices, epoch and generations
            publish(planned.key(), () -> early, answer, codec);
        } else {
            stale.increment();
        }
        return Optional.of(answer);
    }

    /**
     * The answer this replica holds for the request, when it was published under {@code known}: the generations the
     * cache knows current without a round trip ({@link SharedResponseCache#knownGenerations}), the local snapshot
     * with them. Empty when none is held; a held answer under other generations is dropped. The request's key is
     * made only when an answer is held under its bits.
     */
    @SuppressWarnings("unchecked")
    private <A> Optional<A> heldAnswer(Planned planned, SharedResponseCache.Generations known, Codec<A> codec) {
        LocalAnswers.Held answer = held.get(planned.key().bits());
        if (answer == null || answer.codec() != codec || !answer.ticket().key().equals(planned.key().text())) {
            return Optional.empty();
        }
        if (!known.of(answer.ticket())) { // same indices, epoch and generations
            held.remove(answer);
            return Optional.empty();
        }
        hits.increment();
        return Optional.of((A) answer.answer());
    }

    /**
     * A request this replica has not looked up lately, while the cache knows its ticket without a round trip: the
     * snapshot and the generations were current when the request started (a change acknowledged before would have
     * been forgotten), so the answer is computed on the snapshot with no lookup at all, and published under that
     * ticket after it is answered (the publication checks the generations again). The lookup an unknown ticket needs
     * would only have checked that, or found an entry another replica published, which this replica would compute
     * anyway ({@link #overlapped}). The key is made only if the answer is published.
     */
    private <A> A computedUnderKnownTicket(Planned planned, SharedResponseCache.Generations current,
                                           Supplier<A> compute, Codec<A> codec) {
        A answer = computeOn(planned.pinned().view(), compute);
        misses.increment();
        known.remember(current.indices(), current.generations(), current.epoch());
        seen.add(planned.key().bits());
        publish(planned.key(), () -> current.ticket(planned.key().text()), answer, codec);
        return answer;
    }

    /** The cache's server failed: the answer is computed and given without it. */
    private <A> A withoutTheCache(GatewayException failure, Supplier<A> compute) {
        errors.increment();
        LOG.log(System.Logger.Level.DEBUG, "response cache lookup failed; answering without it", failure);
        return compute.get();
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Records the generations a lookup read, as a later request's early ticket, and that its key was looked up. */
    private void remember(SharedResponseCache.Ticket ticket, Key key) {
        known.remember(ticket);
        seen.add(key.bits());
    }

    /**
     * Encodes and publishes {@code answer} under {@code ticket} after the request has its answer: in the background
     * when a slot is free (the ticket makes the publication correct whenever it runs), else here. A later lookup of
     * the same key on this replica waits for it ({@link #awaitPublication}), so a request repeated here after its
     * answer finds the entry.
     */
    private <A> void publish(Key key, Supplier<SharedResponseCache.Ticket> ticketOf, A answer, Codec<A> codec) {
        if (minUses > 1 && uses.use(key.bits()) < minUses) {
            notAdmitted.increment();
            return;
        }
        SharedResponseCache.Ticket ticket = ticketOf.get();
        if (!publications.tryAcquire()) {
            publishNow(ticket, answer, codec);
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        inFlight.put(key.bits(), done);
        Runnable settle = () -> {
            inFlight.remove(key.bits(), done);
            publications.release();
            done.complete(null);
        };
        try {
            background.execute(() -> {
                try {
                    publishNow(ticket, answer, codec);
                } finally {
                    settle.run();
                }
            });
        } catch (RuntimeException e) {
            settle.run();
            publishNow(ticket, answer, codec);
        }
    }

    private <A> void publishNow(SharedResponseCache.Ticket ticket, A answer, Codec<A> codec) {
        Optional<byte[]> bytes;
        try {
            bytes = codec.encode(answer);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "an answer could not be encoded for the response cache", e);
            bytes = Optional.empty();
        }
        if (bytes.isEmpty()) {
            uncacheable.increment();
            return;
        }
        try {
            switch (cache.publish(ticket, bytes.get())) {
                case PUBLISHED -> published.increment();
                case STALE_TICKET -> stale.increment();
                case TOO_LARGE -> tooLarge.increment();
            }
        } catch (GatewayException e) {
            errors.increment();
            LOG.log(System.Logger.Level.DEBUG, "response cache publish failed", e);
        }
    }

    /** Waits for this replica's publication of {@code key} when one is under way. */
    private void awaitPublication(Key key) {
        CompletableFuture<Void> pending = inFlight.isEmpty() ? null : inFlight.get(key.bits());
        if (pending != null) {
            pending.join();
        }
    }

    /** A lookup, the catalog view it was made against (found current after the request started), its key. */
    private record Checked(SharedResponseCache.Lookup lookup, CatalogView view, Key key) {
    }

    /** A request resolved on the local catalog snapshot: its key, the uuids it reads, the snapshot. */
    private record Planned(Key key, List<String> uuids, Catalog.Pinned pinned) {
    }

    /**
     * A request's cache key over the catalog state it resolved against: 64 bits of it at once ({@link #bits}: the
     * request's hint mixed with the target, options, catalog version and uuids), for the hints this replica keeps
     * ({@link RecentKeys}, {@link RecentUses}, what it holds and publishes), and the key itself ({@link #text}: the
     * SHA-256 of the request's text and the rest) made only when the cache is asked or told of it. A request computed
     * under a known ticket and not published (most cold requests) never makes its text or its hash.
     */
    static final class Key {
        private final String target;
        private final CatalogView.Options options;
        private final long catalogVersion;
        private final List<String> uuids;
        private final Request request;
        private final long bits;
        private String text;

        Key(String target, CatalogView.Options options, long catalogVersion, List<String> uuids, Request request) {
            this.target = target;
            this.options = options;
            this.catalogVersion = catalogVersion;
            this.uuids = uuids;
            this.request = request;
            long h = request.hint();
            h = mix(h, target.hashCode());
            h = mix(h, optionBits(options));
            h = mix(h, catalogVersion);
            for (String uuid : uuids) {
                h = mix(h, uuid.hashCode());
            }
            this.bits = h;
        }

        private static long mix(long h, long v) {
            long x = (h ^ v) * 0x9E3779B97F4A7C15L;
            return x ^ (x >>> 29);
        }

        /** The options as bits (a record's own hash goes through a method handle on every call). */
        private static long optionBits(CatalogView.Options o) {
            return (o.ignoreUnavailable() ? 1 : 0) | (o.allowNoIndices() ? 2 : 0) | (o.expandHidden() ? 4 : 0)
                    | (o.expandOpen() ? 8 : 0) | (o.expandClosed() ? 16 : 0);
        }

        long bits() {
            return bits;
        }

        /** The key: the SHA-256 ({@link SharedAnswers#key}), made on the first call. */
        String text() {
            String made = text;
            if (made == null) {
                made = key(target, options, catalogVersion, uuids, request.text());
                text = made;
            }
            return made;
        }
    }

    /**
     * {@code compute} with {@code view} as the request's {@link Catalog#CHECKED} view: the lookup's round trip already
     * found it current (or, when overlapped, is about to say whether it was, and the answer is dropped if not), so
     * the computation's catalog reads need not ask the server again.
     */
    private static <A> A computeOn(CatalogView view, Supplier<A> compute) {
        return ScopedValue.where(Catalog.CHECKED, view).call(compute::get);
    }

    /**
     * The request resolved on this replica's local catalog snapshot, whose currency the lookup checks in the same round
     * trip ({@link SharedResponseCache#lookupIf}); null when there is no snapshot or it cannot decide (the target does
     * not resolve, an index is not cacheable on it): the caller then reads the catalog first.
     */
    private Planned planned(String target, CatalogView.Options options, Request request) {
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
        return new Planned(new Key(target, options, pinned.get().view().version(), uuids, request), uuids,
                pinned.get());
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
                errors.sum(), notAdmitted.sum());
    }

    /** SHA-256 of everything the answer depends on besides the data generations. */
    static String key(String target, CatalogView.Options options, long catalogVersion, List<String> uuids,
                      String request) {
        MessageDigest digest = sha256();
        StringBuilder head = new StringBuilder(128).append(target).append('\u0000')
                .append(options).append('\u0000')
                .append(catalogVersion).append('\u0000');
        uuids.forEach(u -> head.append(u).append(','));
        head.append('\u0000');
        digest.update(head.toString().getBytes(StandardCharsets.UTF_8));
        digest.update(request.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * A new SHA-256 digest: a copy of one made once ({@link MessageDigest#getInstance} looks the algorithm up among
     * the providers on every call, which costs more than hashing a request).
     */
    private static MessageDigest sha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 digest cannot be copied", e);
        }
    }
}
