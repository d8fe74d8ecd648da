package io.qdrant.esgateway.adapter.out.catalog.redis;

import io.qdrant.esgateway.adapter.out.redis.Invalidations;
import io.qdrant.esgateway.adapter.out.catalog.redis.CatalogRecords.Kind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.adapter.out.redis.ServerRunScript;
import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The {@link io.qdrant.esgateway.application.port.out.Catalog} in Valkey/Redis, shared by every gateway replica.
 *
 * <p><b>Keys</b> (after the prefix): {@code catalog:gen}, the catalog generation (the view's version), moved by
 * every change; {@code catalog:epoch}, a random id set anew whenever the server runs anew ({@code catalog:run}, its
 * run id, checked by every new connection before its first command), so a server that restarted, lost its data or
 * came back from an older snapshot is never mistaken for the catalog a local snapshot was read from; one hash per
 * {@link Kind} of record ({@link CatalogRecords}); {@code catalog:datagen}, each index's write generation; {@code catalog:change:ID}, the
 * marks of recent changes.
 *
 * <p><b>Changes</b> are optimistic transactions: {@code WATCH catalog:gen}, read the snapshot, decide in Java,
 * then {@code MULTI} … {@code INCR catalog:gen}, {@code SET catalog:change:ID} {@code EXEC}. Any other change in
 * between moves the generation, so the transaction aborts and is decided again on the new catalog: a change is
 * applied whole or not at all, on exactly the catalog it was decided on. If the reply of {@code EXEC} is lost, the
 * outcome is settled before anything else: one script on a new connection answers whether the change's mark exists
 * and, if not, moves the generation, which makes the lost {@code EXEC} abort should it still arrive. Only then is
 * the change decided again; if that cannot be done either, the call fails as unavailable and nothing is replayed.
 *
 * <p><b>Reads</b>: {@link #view()} reads the generation and epoch ({@code MGET}, one round trip) and returns the
 * local snapshot while they are unchanged; otherwise it loads every record in one script (atomic, size-checked
 * before anything is sent). A change acknowledged to anyone moved the generation before its acknowledgement, so
 * every view read after it, on any replica, is of that change or later.
 */
final class RedisCatalog implements RedisCatalogs.Handle {
    private static final Logger LOG = Logger.getLogger(RedisCatalog.class.getName());
    /** How many times a change is decided again after losing a race before the call gives up. */
    static final int CHANGE_ATTEMPTS = 64;
    /** How long a change's mark is kept: far longer than any reply can be late. */
    static final long CHANGE_MARK_SECONDS = 3_600;

    /**
     * The snapshot: the generation, the epoch, then each kind's fields and values, in {@link Kind} order. Refuses a
     * catalog past its bounds (counts first, then bytes) before sending any of it.
     */
    private static final String LOAD = """
            local out = {redis.call('GET', KEYS[1]) or '0', redis.call('GET', KEYS[2]) or ''}
            for i = 3, #KEYS do
              local n = redis.call('HLEN', KEYS[i])
              if n > tonumber(ARGV[i - 2]) then
                return redis.error_reply('QEG_CATALOG_TOO_LARGE ' .. KEYS[i] .. ' holds ' .. n .. ' records, more than ' .. ARGV[i - 2])
              end
            end
            local bytes = 0
            local limit = tonumber(ARGV[#KEYS - 1])
            for i = 3, #KEYS do
              local all = redis.call('HGETALL', KEYS[i])
              for j = 1, #all do bytes = bytes + #all[j] end
              if bytes > limit then
                return redis.error_reply('QEG_CATALOG_TOO_LARGE the records hold more than ' .. limit .. ' bytes')
              end
              out[#out + 1] = all
            end
            return out
            """;
    /** Moves an index's write generation, only while the index exists. */
    private static final String BUMP = """
            if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
              return redis.error_reply('QEG_INDEX_NOT_FOUND')
            end
            return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
            """;
    /** Settles a change whose reply was lost: 1 if it was applied; otherwise 0, and it never will be. */
    private static final String SETTLE = """
            if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
            redis.call('INCR', KEYS[2])
            return 0
            """;

    /**
     * Takes an index's write turn ({@code KEYS[1]}, for {@code ARGV[2]} ms, token {@code ARGV[1]}) and reserves
     * {@code ARGV[3]} sequence numbers ({@code KEYS[2]}: a hash of the highest number handed out and the run id of the
     * server that counted it). Replies {0, ms left} when another holds the turn; {2} when the counter must be seeded
     * first (missing, or counted by a server run before a restart, which may have lost its last increments: the turn
     * is then held); else {1, the reserved block's highest number}. The turn's key holds {@code <run id>/<token>}:
     * a turn taken before the server restarted does not hold (its holder cannot end it: its end finds another run).
     * Run again with the same token (its reply was lost) it takes the turn again and reserves a new block: the first
     * block is never used, so no number is handed out twice. An ended turn's key ({@code done:<token>}) does not hold.
     */
    private static final String TURN = ServerRunScript.RUN_ID + """
            local mine = run .. '/' .. ARGV[1]
            local held = redis.call('GET', KEYS[1])
            if held and held ~= mine and string.sub(held, 1, #run + 1) == run .. '/' then
              return {0, redis.call('PTTL', KEYS[1])}
            end
            redis.call('SET', KEYS[1], mine, 'PX', ARGV[2])
            local s = redis.call('HMGET', KEYS[2], 'run', 'max')
            if s[1] ~= run or not s[2] then
              return {2}
            end
            return {1, redis.call('HINCRBY', KEYS[2], 'max', ARGV[3])}
            """;
    /**
     * Seeds the counter of a held turn with the store's highest number ({@code ARGV[2]}) unless it is higher already,
     * records this server run, then reserves as {@link #TURN} does.
     */
    private static final String SEED = ServerRunScript.RUN_ID + """
            if redis.call('GET', KEYS[1]) ~= run .. '/' .. ARGV[1] then
              return redis.error_reply('QEG_TURN_LOST the write turn was lost before its sequence numbers were seeded')
            end
            local known = redis.call('HGET', KEYS[2], 'max')
            if not known or tonumber(ARGV[2]) > tonumber(known) then
              redis.call('HSET', KEYS[2], 'max', ARGV[2])
            end
            redis.call('HSET', KEYS[2], 'run', run)
            return redis.call('HINCRBY', KEYS[2], 'max', ARGV[3])
            """;
    /**
     * Ends a turn: 0 if it was no longer held by this token in this server run; else releases it and, when the
     * counter still stands at the turn's block top ({@code ARGV[2]}), lowers it to the last number used
     * ({@code ARGV[3]}). The key keeps {@code done:<token>} for a few seconds, so the same end run again (its reply
     * was lost) answers 1 again.
     */
    private static final String END = """
            local held = redis.call('GET', KEYS[1])
            if held == 'done:' .. ARGV[1] then
              return 1
            end
            """ + ServerRunScript.RUN_ID + """
            if held ~= run .. '/' .. ARGV[1] then
              return 0
            end
            redis.call('SET', KEYS[1], 'done:' .. ARGV[1], 'PX', 5000)
            if ARGV[3] ~= '' and redis.call('HGET', KEYS[2], 'max') == ARGV[2] then
              redis.call('HSET', KEYS[2], 'max', ARGV[3])
            end
            return 1
            """;
    /**
     * Extends a held turn's lease ({@code ARGV[2]} ms) while its holder works: 1, or 0 when the turn is no longer this
     * token's in this server run (it expired, ended, or the server restarted).
     */
    private static final String RENEW = ServerRunScript.RUN_ID + """
            if redis.call('GET', KEYS[1]) ~= run .. '/' .. ARGV[1] then
              return 0
            end
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return 1
            """;
    /**
     * Run on every new connection before it is used: when the server's run id ({@code INFO server}) is not the one
     * recorded ({@code KEYS[1]}), records it and gives the catalog a new epoch ({@code KEYS[2]} := {@code ARGV[1]}),
     * replying 1; else 0. A server that restarted may have come back with an older catalog (a snapshot, a restored
     * backup, a promoted replica), whose generation could later reach a value a replica's snapshot already has with
     * other contents: the new epoch makes every replica read the catalog again instead.
     */
    private static final String RUN = ServerRunScript.RUN_ID + """
            if redis.call('GET', KEYS[1]) == run and redis.call('EXISTS', KEYS[2]) == 1 then
              return 0
            end
            redis.call('SET', KEYS[2], ARGV[1])
            redis.call('SET', KEYS[1], run)
            return 1
            """;
    /**
     * Records deletion tombstones: {@code KEYS[1]} a hash of id to the delete's version, {@code KEYS[2]} a sorted set
     * of id by expiry (server time, ms, {@code ARGV[1]} from now); {@code ARGV[2..]} pairs of id and version. Neither
     * key has a TTL, so {@code volatile-*} eviction never drops a tombstone early; expired ones are removed here.
     * Nothing is recorded for an index whose counter ({@code KEYS[3]}) is gone: it was deleted.
     */
    private static final String RECORD_TOMBSTONES = """
            if redis.call('EXISTS', KEYS[3]) == 0 then
              return 0
            end
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', string.format('%.0f', now), 'LIMIT', 0, 500)
            if #expired > 0 then
              redis.call('HDEL', KEYS[1], unpack(expired))
              redis.call('ZREM', KEYS[2], unpack(expired))
            end
            local expires = string.format('%.0f', now + tonumber(ARGV[1]))
            for i = 2, #ARGV, 2 do
              redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
              redis.call('ZADD', KEYS[2], expires, ARGV[i])
            end
            return 1
            """;
    /** The unexpired tombstones of the ids {@code ARGV}: a flat list of id, version. */
    private static final String TOMBSTONES = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local out = {}
            for i = 1, #ARGV do
              local expires = redis.call('ZSCORE', KEYS[2], ARGV[i])
              if expires and tonumber(expires) > now then
                out[#out + 1] = ARGV[i]
                out[#out + 1] = redis.call('HGET', KEYS[1], ARGV[i])
              end
            end
            return out
            """;
    /** How long a write turn is held at most: a turn still running after it fails (its lease is no longer renewed). */
    static final long WRITE_TURN_MILLIS = 15_000;
    /**
     * A turn's lease: how long a holder that stopped (killed, cut off from the server) keeps others waiting. The holder
     * renews it every {@link #WRITE_TURN_RENEW_MILLIS} while it works, and writes nothing once its lease may have
     * lapsed.
     */
    static final long WRITE_TURN_LEASE_MILLIS = 2_000;
    static final long WRITE_TURN_RENEW_MILLIS = 400;

    private final RedisCatalogs.Settings settings;
    private final JedisPool pool;
    private final String genKey;
    private final String epochKey;
    private final String dataGenKey;
    private final String prefix;
    private final Map<String, String> shas = new java.util.concurrent.ConcurrentHashMap<>();
    /** Where tests lose a reply or a request on purpose; null in production. */
    private final Faults faults;
    private final CatalogRecords.Limits limits;
    /** How a change is announced to the replicas holding leases (see {@link #attempt}). */
    private final Invalidations invalidations;
    private volatile Snapshot snapshot;
    /** {@link #pinned}'s answer and the snapshot it was made of (made once per snapshot). */
    private volatile PinnedSnapshot pinnedSnapshot;
    private volatile io.qdrant.esgateway.adapter.out.redis.KnownValues known =
            io.qdrant.esgateway.adapter.out.redis.KnownValues.NONE;
    private volatile boolean closed;
    /** Renews the leases of this replica's held write turns. */
    private final java.util.concurrent.ScheduledExecutorService renewals =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(work -> {
                Thread thread = new Thread(work, "qeg-write-turn-leases");
                thread.setDaemon(true);
                return thread;
            });

    /** A loaded view, the epoch it belongs to, and the bytes its records take. */
    private record Snapshot(String epoch, CatalogView view, long bytes, Map<Kind, Map<String, String>> records) {
        long generation() {
            return view.version();
        }
    }

    /** Test hooks around {@code EXEC}. */
    interface Faults {
        /** Called just before {@code EXEC} is sent, on its connection (a test may break the connection). */
        void beforeExec(Jedis connection);

        /** Called after {@code EXEC} answered (a test may throw as if the reply was lost). */
        void afterExec();
    }

    private RedisCatalog(RedisCatalogs.Settings settings, JedisPool pool, Faults faults, CatalogRecords.Limits limits) {
        this.settings = settings;
        this.limits = limits;
        this.pool = pool;
        this.faults = faults;
        this.prefix = settings.prefix();
        this.genKey = prefix + "catalog:gen";
        this.epochKey = prefix + "catalog:epoch";
        this.dataGenKey = prefix + "catalog:datagen";
        this.invalidations = new Invalidations(prefix, settings.leaseTerm());
    }

    static RedisCatalog open(RedisCatalogs.Settings settings) {
        return open(settings, null, CatalogRecords.Limits.DEFAULT);
    }

    static RedisCatalog open(RedisCatalogs.Settings settings, Faults faults, CatalogRecords.Limits limits) {
        return open(settings, faults, limits, null);
    }

    /** @param tls the TLS sockets of a {@code rediss://} URL; null for the JVM's default (its trust store) */
    static RedisCatalog open(RedisCatalogs.Settings settings, Faults faults, CatalogRecords.Limits limits,
                             SSLSocketFactory tls) {
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(settings.connections());
        config.setMaxIdle(settings.connections());
        config.setMinIdle(0);
        config.setBlockWhenExhausted(true);
        config.setMaxWait(settings.timeout());
        config.setJmxEnabled(false);
        int millis = (int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis());
        List<String> runKeys = List.of(settings.prefix() + "catalog:run", settings.prefix() + "catalog:epoch");
        // every connection checks the server's run before its first command (a restart breaks every older one)
        JedisPool pool = new JedisPool(config, new io.qdrant.esgateway.adapter.out.redis.ServerRunCheck(
                JedisURIHelper.getHostAndPort(settings.url()), clientConfig(settings.url(), millis, tls), jedis -> {
                    Object changed = jedis.eval(RUN, runKeys, List.of(UUID.randomUUID().toString()));
                    if (Long.valueOf(1).equals(changed)) {
                        LOG.info("the catalog's server at " + settings.displayUrl() + " runs anew (a restart, a"
                                + " restored snapshot or a promoted replica): the catalog gets a new epoch");
                    }
                }));
        return new RedisCatalog(settings, pool, faults, limits);
    }

    /**
     * The connection settings of a URL: credentials, database, and for {@code rediss://} TLS with the server's
     * host name verified against its certificate (as for {@code https}).
     */
    private static JedisClientConfig clientConfig(java.net.URI url, int timeoutMillis, SSLSocketFactory tls) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeoutMillis).socketTimeoutMillis(timeoutMillis)
                .user(JedisURIHelper.getUser(url)).password(JedisURIHelper.getPassword(url))
                .database(JedisURIHelper.getDBIndex(url));
        if (JedisURIHelper.isRedisSSLScheme(url)) {
            SSLParameters verifyHost = new SSLParameters();
            verifyHost.setEndpointIdentificationAlgorithm("HTTPS");
            config.ssl(true).sslParameters(verifyHost);
            if (tls != null) {
                config.sslSocketFactory(tls);
            }
        }
        return config.build();
    }

    // ------------------------------------------------------------------------------------------ reads

    @Override
    public CatalogView view() {
        if (CHECKED.isBound()) {
            return CHECKED.get(); // found current after this request started, in its cache lookup's round trip
        }
        Snapshot local = snapshot;
        if (local != null && !closed && known.current(new String[] {genKey, epochKey},
                new String[] {Long.toString(local.generation()), local.epoch()})) {
            return local.view(); // known current under the lease: every change since would have made it forgotten
        }
        return current(null).view();
    }

    @Override
    public void useKnownValues(io.qdrant.esgateway.adapter.out.redis.KnownValues values) {
        this.known = values;
    }

    /** The local snapshot, current while the generation and epoch keys hold its generation and epoch. */
    @Override
    public Optional<Pinned> pinned() {
        Snapshot known = snapshot;
        if (known == null || closed) {
            return Optional.empty();
        }
        PinnedSnapshot made = pinnedSnapshot;
        if (made == null || made.of() != known) {
            made = new PinnedSnapshot(known, new Pinned(known.view(), List.of(genKey, epochKey),
                    List.of(Long.toString(known.generation()), known.epoch())));
            pinnedSnapshot = made;
        }
        return Optional.of(made.pinned());
    }

    private record PinnedSnapshot(Snapshot of, Pinned pinned) {
    }

    /** The snapshot as of now: the local one if the generation and epoch did not move, else loaded. */
    private Snapshot current(Jedis onConnection) {
        if (onConnection != null) {
            return currentOn(onConnection);
        }
        return call("reading the catalog", this::currentOn);
    }

    private Snapshot currentOn(Jedis jedis) {
        long stamp = known.stamp();
        List<String> state = jedis.mget(genKey, epochKey);
        String epoch = state.get(1);
        if (epoch != null && state.get(0) != null) {
            known.learn(stamp, new String[] {genKey, epochKey}, new String[] {state.get(0), epoch});
        }
        if (epoch == null) {
            jedis.set(epochKey, UUID.randomUUID().toString(), SetParams.setParams().nx());
        }
        Snapshot known = snapshot;
        if (known != null && epoch != null && epoch.equals(known.epoch())
                && parseLong(state.get(0)) == known.generation()) {
            return known;
        }
        Snapshot loaded = load(jedis);
        Snapshot latest = snapshot;
        if (latest == null || !latest.epoch().equals(loaded.epoch()) || latest.generation() <= loaded.generation()) {
            if (latest != null && !latest.epoch().equals(loaded.epoch())) {
                LOG.warning("the catalog at " + settings.displayUrl() + " has a new epoch: the server restarted, lost"
                        + " its data or was pointed at another database; reading it from scratch");
            }
            snapshot = loaded;
        }
        return loaded;
    }

    private Snapshot load(Jedis jedis) {
        List<String> keys = new ArrayList<>(List.of(genKey, epochKey));
        List<String> args = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            keys.add(prefix + kind.hash);
            args.add(Integer.toString(limits.max(kind)));
        }
        args.add(Long.toString(limits.snapshotBytes()));
        Object reply;
        try {
            reply = script(jedis, LOAD, keys, args);
        } catch (JedisDataException e) {
            String marker = "QEG_CATALOG_TOO_LARGE ";
            if (e.getMessage() != null && e.getMessage().contains(marker)) {
                throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl()
                        + " is larger than this gateway supports (" + limits.indices() + " indices, "
                        + limits.aliases() + " aliases, " + limits.snapshotBytes() + " bytes): " + e.getMessage().substring(e.getMessage().indexOf(marker) + marker.length()), e);
            }
            throw e;
        }
        List<?> parts = (List<?>) reply;
        long generation = parseLong(text(parts.get(0)));
        String epoch = text(parts.get(1));
        Map<Kind, Map<String, String>> records = new EnumMap<>(Kind.class);
        long bytes = 0;
        Kind[] kinds = Kind.values();
        for (int k = 0; k < kinds.length; k++) {
            List<?> flat = (List<?>) parts.get(2 + k);
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                String field = text(flat.get(i));
                String value = text(flat.get(i + 1));
                bytes += field.length() + value.length(); // characters: the bound is checked in bytes by the script
                fields.put(field, value);
            }
            records.put(kinds[k], fields);
        }
        Snapshot previous = snapshot;
        Map<String, IndexMetadata> known = new java.util.HashMap<>();
        if (previous != null) {
            previous.records().getOrDefault(Kind.INDEX, Map.of()).forEach((field, value) ->
                    previous.view().index(field).ifPresent(index -> known.put(value, index)));
        }
        try {
            return new Snapshot(epoch, CatalogRecords.decode(generation, records, known), bytes, records);
        } catch (CatalogRecords.CorruptRecord e) {
            throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl()
                    + " holds a record this gateway refuses, so none of it is read: " + e.getMessage(), e);
        }
    }

    @Override
    public long generation(String index) {
        String value = call("reading the generation of [" + index + "]", jedis -> jedis.hget(dataGenKey, index));
        if (value == null) {
            throw GatewayException.indexNotFound(index);
        }
        return parseLong(value);
    }

    /** A data generation is not part of the view: no catalog generation move, no change mark, never retried. */
    @Override
    public long bumpGeneration(String index) {
        try {
            // not run again after a connection failure: the script may have run
            Object moved = call("moving the generation of [" + index + "]",
                    jedis -> script(jedis, BUMP, List.of(prefix + Kind.INDEX.hash, dataGenKey), List.of(index)), false);
            return (Long) moved;
        } catch (GatewayException e) {
            if (e.getCause() instanceof JedisDataException d && d.getMessage() != null
                    && d.getMessage().contains("QEG_INDEX_NOT_FOUND")) {
                throw GatewayException.indexNotFound(index);
            }
            throw e;
        }
    }

    /**
     * The write turn of an index across every replica: a lease ({@code turn:<uuid>}, {@link #WRITE_TURN_LEASE_MILLIS},
     * renewed while its holder works, for {@link #WRITE_TURN_MILLIS} at most) taken in the same script and round trip that reserves the turn's sequence numbers from the index's counter
     * ({@code seq:<uuid>}, {@code HINCRBY}). The counter is seeded from the store's highest recorded number when it is
     * missing or was counted by an earlier run of the server (a restart may have lost its last increments, with or
     * without persistence), so a number once handed out and acknowledged is never handed out again. A turn held by
     * another replica is waited for (it ends, or its lease expires). Each script may run twice after a connection
     * failure (see the scripts): a turn's block reserved twice leaves a gap, never a number handed out twice.
     */
    @Override
    public Optional<WriteTurn> writeTurn(IndexMetadata index, int reserve, java.util.function.LongSupplier storedMaxSeqNo) {
        if (reserve < 0) {
            throw new IllegalArgumentException("reserve must not be negative");
        }
        List<String> keys = List.of(prefix + "turn:" + index.uuid(), prefix + "seq:" + index.uuid());
        String token = UUID.randomUUID().toString();
        String what = "taking the write turn of [" + index.name() + "]";
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(WRITE_TURN_MILLIS + 5_000);
        for (int attempt = 0; ; attempt++) {
            long sent = System.nanoTime();
            List<?> reply = (List<?>) call(what, jedis -> script(jedis, TURN, keys,
                    List.of(token, Long.toString(WRITE_TURN_LEASE_MILLIS), Integer.toString(reserve))));
            long status = (Long) reply.get(0);
            if (status == 1) {
                return Optional.of(new Turn(index.uuid(), keys, token, (Long) reply.get(1), reserve,
                        new Lease(keys, token, sent)));
            }
            if (status == 2) {
                Lease lease = new Lease(keys, token, sent);
                long top;
                try {
                    long stored = storedMaxSeqNo.getAsLong();
                    lease.check();
                    top = (Long) call("seeding the sequence numbers of [" + index.name() + "]", jedis -> script(jedis,
                            SEED, keys, List.of(token, Long.toString(stored), Integer.toString(reserve))));
                } catch (RuntimeException e) {
                    lease.stop();
                    release(keys, token, null, null);
                    throw e;
                }
                return Optional.of(new Turn(index.uuid(), keys, token, top, reserve, lease));
            }
            long left = (Long) reply.get(1);
            if (System.nanoTime() > deadline) {
                throw GatewayException.backendUnavailable("the write turn of [" + index.name() + "] is held by another"
                        + " gateway replica for longer than " + WRITE_TURN_MILLIS + " ms; nothing was written", null);
            }
            try {
                // short waits first (a turn usually lasts one store write), never past the lease's end
                long pause = Math.min(Math.max(1, left), Math.min(1L << Math.min(attempt, 5), 20L));
                Thread.sleep(pause + ThreadLocalRandom.current().nextInt(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw GatewayException.backendUnavailable("waiting for the write turn of [" + index.name()
                        + "] was interrupted", e);
            }
        }
    }

    /** Ends a turn; true when it was still held. {@code top}/{@code lastUsed} null: nothing given back. */
    private boolean release(List<String> keys, String token, Long top, Long lastUsed) {
        Object ended = call("ending a write turn", jedis -> script(jedis, END, keys, List.of(token,
                top == null ? "" : Long.toString(top), lastUsed == null ? "" : Long.toString(lastUsed))));
        return Long.valueOf(1).equals(ended);
    }

    /**
     * A held turn's lease, renewed every {@link #WRITE_TURN_RENEW_MILLIS} until the turn ends or has been held for
     * {@link #WRITE_TURN_MILLIS}. It is known held until {@link #WRITE_TURN_LEASE_MILLIS} after the last renewal that
     * succeeded was sent (the server's expiry runs from a later instant), so the holder can tell when its turn may
     * have passed to another replica without asking.
     */
    private final class Lease implements Runnable {
        private final List<String> keys;
        private final String token;
        private final long taken;
        private volatile long heldUntil;
        private volatile boolean lost;
        private final java.util.concurrent.ScheduledFuture<?> renewal;

        Lease(List<String> keys, String token, long sent) {
            this.keys = keys;
            this.token = token;
            this.taken = sent;
            this.heldUntil = sent + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(WRITE_TURN_LEASE_MILLIS);
            java.util.concurrent.ScheduledFuture<?> scheduled;
            try {
                scheduled = renewals.scheduleWithFixedDelay(this, WRITE_TURN_RENEW_MILLIS, WRITE_TURN_RENEW_MILLIS,
                        java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                scheduled = null; // the catalog is closing: the lease runs out
            }
            this.renewal = scheduled;
        }

        @Override
        public void run() {
            long sent = System.nanoTime();
            if (lost || sent - taken > java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(WRITE_TURN_MILLIS)) {
                stop();
                return;
            }
            try {
                Object renewed = call("renewing a write turn", jedis -> script(jedis, RENEW, keys.subList(0, 1),
                        List.of(token, Long.toString(WRITE_TURN_LEASE_MILLIS))));
                if (Long.valueOf(1).equals(renewed)) {
                    heldUntil = sent + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(WRITE_TURN_LEASE_MILLIS);
                } else {
                    lost = true;
                    stop();
                }
            } catch (RuntimeException e) {
                // the server did not answer: the next renewal tries again; the lease may run out meanwhile
                LOG.log(Level.FINE, "a write turn's lease could not be renewed", e);
            }
        }

        /** Throws when the lease may have lapsed: the turn may be another replica's now. */
        void check() {
            if (lost || System.nanoTime() - heldUntil >= 0) {
                throw GatewayException.backendUnavailable("the write turn of the index was lost (its lease could not"
                        + " be renewed in time, or it was held for more than " + WRITE_TURN_MILLIS + " ms); nothing"
                        + " was written", null);
            }
        }

        void stop() {
            if (renewal != null) {
                renewal.cancel(false);
            }
        }
    }

    /** A held write turn and its block of sequence numbers, {@code (top - reserved, top]}. */
    private final class Turn implements WriteTurn {
        private final List<String> keys;
        private final String token;
        private final long top;
        private final int reserved;
        private final Lease lease;
        private final String uuid;
        private boolean ended;

        Turn(String uuid, List<String> keys, String token, long top, int reserved, Lease lease) {
            this.uuid = uuid;
            this.keys = keys;
            this.token = token;
            this.top = top;
            this.reserved = reserved;
            this.lease = lease;
        }

        @Override
        public void checkHeld() {
            lease.check();
        }

        @Override
        public Map<String, Long> tombstones(Collection<String> ids) {
            if (ids.isEmpty()) {
                return Map.of();
            }
            List<?> reply = (List<?>) call("reading deletion tombstones", jedis -> script(jedis, TOMBSTONES,
                    tombstoneKeys(), List.copyOf(ids)));
            Map<String, Long> found = new LinkedHashMap<>();
            for (int i = 0; i + 1 < reply.size(); i += 2) {
                found.put(text(reply.get(i)), Long.parseLong(text(reply.get(i + 1))));
            }
            return found;
        }

        @Override
        public void recordTombstones(Map<String, Long> deleted, java.time.Duration keep) {
            if (deleted.isEmpty()) {
                return;
            }
            List<String> args = new ArrayList<>(1 + 2 * deleted.size());
            args.add(Long.toString(Math.max(1, keep.toMillis())));
            deleted.forEach((id, version) -> {
                args.add(id);
                args.add(Long.toString(version));
            });
            // run twice (a lost reply), it records the same versions again
            call("recording deletion tombstones", jedis -> script(jedis, RECORD_TOMBSTONES, tombstoneKeys(), args));
        }

        private List<String> tombstoneKeys() {
            return List.of(prefix + "tomb:" + uuid, prefix + "tombx:" + uuid, keys.get(1));
        }

        @Override
        public long seqNoBefore() {
            return top - reserved;
        }

        @Override
        public void end(long lastUsed) {
            if (lastUsed < seqNoBefore() || lastUsed > top) {
                throw new IllegalArgumentException("[" + lastUsed + "] is outside the turn's block");
            }
            ended = true;
            lease.stop();
            if (!release(keys, token, top, lastUsed)) {
                throw GatewayException.backendUnavailable("the write turn of the index ended before its writes did"
                        + " (its lease lapsed, it was held for more than " + WRITE_TURN_MILLIS + " ms, or the"
                        + " catalog's server restarted):"
                        + " another replica may have written the same documents meanwhile; the writes were applied"
                        + " but are not acknowledged", null);
            }
        }

        @Override
        public void close() {
            if (!ended) {
                ended = true;
                lease.stop();
                try {
                    release(keys, token, null, null);
                } catch (GatewayException e) {
                    LOG.log(Level.FINE, "a write turn could not be given up; its lease expires", e);
                }
            }
        }
    }

    @Override
    public String clusterUuid(String candidate) {
        String key = prefix + "catalog:cluster_uuid";
        return call("reading the cluster uuid", jedis -> {
            jedis.set(key, candidate, SetParams.setParams().nx());
            return jedis.get(key);
        });
    }

    /**
     * Stored scripts are not part of the view: each is one hash ({@code script:<id>}, fields {@code lang} and
     * {@code source}) read from Valkey/Redis on every use, so a script stored by one replica is seen by every request
     * started afterwards without a catalog generation move; storing the same script twice is harmless, so these calls
     * may run again after a connection failure.
     */
    @Override
    public void putStoredScript(String id, io.qdrant.esgateway.domain.script.StoredScript script) {
        call("storing the script [" + id + "]", jedis -> jedis.hset(prefix + "script:" + id,
                Map.of("lang", script.lang(), "source", script.source())));
    }

    @Override
    public Optional<io.qdrant.esgateway.domain.script.StoredScript> storedScript(String id) {
        Map<String, String> fields = call("reading the script [" + id + "]", jedis -> jedis.hgetAll(prefix + "script:" + id));
        if (fields == null || fields.isEmpty()) {
            return Optional.empty();
        }
        if (fields.get("lang") == null || fields.get("source") == null) {
            throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl()
                    + " holds the stored script [" + id + "] without its lang or source", null);
        }
        return Optional.of(new io.qdrant.esgateway.domain.script.StoredScript(fields.get("lang"), fields.get("source")));
    }

    /**
     * Security records (users, roles, API keys) are not part of the view either: one hash per kind
     * ({@code security:<kind>}, a field per name), read from Valkey/Redis on every use, so a change by one replica
     * is seen by the next request on any other; "only if absent" is {@code HSETNX}.
     */
    @Override
    public boolean putSecurityRecord(String kind, String name, String record, boolean onlyIfAbsent) {
        String key = prefix + "security:" + kind;
        return call("storing the " + kind + " [" + name + "]", jedis -> onlyIfAbsent
                ? jedis.hsetnx(key, name, record) == 1
                : jedis.hset(key, name, record) >= 0);
    }

    @Override
    public Optional<String> securityRecord(String kind, String name) {
        return Optional.ofNullable(call("reading the " + kind + " [" + name + "]",
                jedis -> jedis.hget(prefix + "security:" + kind, name)));
    }

    @Override
    public java.util.SortedMap<String, String> securityRecords(String kind) {
        Map<String, String> all = call("reading every " + kind, jedis -> jedis.hgetAll(prefix + "security:" + kind));
        return new java.util.TreeMap<String, String>(all);
    }

    @Override
    public boolean deleteSecurityRecord(String kind, String name) {
        return call("deleting the " + kind + " [" + name + "]",
                jedis -> jedis.hdel(prefix + "security:" + kind, name)) > 0;
    }

    @Override
    public boolean deleteStoredScript(String id) {
        return call("deleting the script [" + id + "]", jedis -> jedis.del(prefix + "script:" + id)) > 0;
    }

    /**
     * Templates are not part of the view either: one hash per kind ({@code templates:index},
     * {@code templates:component}; field: the name, value: the stored JSON), read on every index creation and every
     * template request. A create-only put or a delete is not sent again after a connection failure (it may have
     * applied, and a second try would answer as if the template had existed or been missing).
     */
    @Override
    public Map<String, String> templates(io.qdrant.esgateway.domain.index.TemplateKind kind) {
        Map<String, String> all = call("reading the templates", jedis -> jedis.hgetAll(templatesKey(kind)));
        return all == null ? Map.of() : new java.util.TreeMap<>(all);
    }

    @Override
    public boolean putTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name, String json,
                               boolean onlyIfAbsent) {
        if (onlyIfAbsent) {
            return call("storing the template [" + name + "]", jedis -> jedis.hsetnx(templatesKey(kind), name, json),
                    false) > 0;
        }
        call("storing the template [" + name + "]", jedis -> jedis.hset(templatesKey(kind), name, json));
        return true;
    }

    @Override
    public boolean deleteTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name) {
        return call("deleting the template [" + name + "]", jedis -> jedis.hdel(templatesKey(kind), name), false) > 0;
    }

    private String templatesKey(io.qdrant.esgateway.domain.index.TemplateKind kind) {
        return prefix + "templates:" + kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void ping() {
        call("pinging", Jedis::ping);
    }

    @Override
    public void close() {
        closed = true;
        renewals.shutdownNow();
        pool.close();
    }

    // ------------------------------------------------------------------------------------------ changes

    @Override
    public void createIndex(IndexMetadata index, List<AliasMetadata> aliases) {
        requireDistinct(aliases);
        for (AliasMetadata alias : aliases) {
            if (!alias.index().equals(index.name())) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] names index [" + alias.index()
                        + "], not the index being created [" + index.name() + "]");
            }
        }
        IndexMetadata stored = new IndexMetadata(index.name(), index.uuid(),
                index.creationDate().truncatedTo(ChronoUnit.MILLIS), index.settings(), index.mappings());
        change("creating index [" + index.name() + "]", snap -> {
            CatalogView view = snap.view();
            view.index(index.name()).ifPresent(existing -> {
                throw GatewayException.alreadyExists(existing.name(), existing.uuid());
            });
            if (view.isAlias(index.name())) {
                throw GatewayException.invalidIndexName(index.name(), "already exists as alias");
            }
            if (view.indices().size() >= limits.indices()) {
                throw GatewayException.validationFailed(List.of("this action would add an index, but the catalog"
                        + " already holds [" + view.indices().size() + "] indices, the most it supports ["
                        + limits.indices() + "]"));
            }
            if (view.aliases().size() + aliases.size() > limits.aliases()) {
                throw tooManyAliases(view.aliases().size() + aliases.size());
            }
            Writes writes = new Writes(snap);
            writes.put(Kind.INDEX, CatalogRecords.indexField(stored.name()), CatalogRecords.encode(stored));
            for (AliasMetadata alias : aliases) {
                writes.put(Kind.ALIAS, CatalogRecords.aliasField(alias), CatalogRecords.encode(alias));
            }
            writes.dataGenerations.put(stored.name(), true);
            return writes.done(null);
        });
    }

    @Override
    public void deleteIndices(Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        Set<String> distinct = new LinkedHashSet<>(names);
        change("deleting indices " + distinct, snap -> {
            Writes writes = new Writes(snap);
            for (String name : distinct) {
                if (snap.view().index(name).isPresent()) {
                    removeIndex(snap.view(), name, writes);
                }
            }
            return writes.done(null);
        });
    }

    @Override
    public void updateMappings(String index, Mappings mappings) {
        changeMappings(index, current -> mappings);
    }

    @Override
    public Mappings changeMappings(String index, UnaryOperator<Mappings> change) {
        return change("changing the mappings of [" + index + "]", snap -> {
            IndexMetadata current = snap.view().index(index).orElseThrow(() -> GatewayException.indexNotFound(index));
            Mappings next = change.apply(current.mappings());
            Writes writes = new Writes(snap);
            writes.put(Kind.INDEX, CatalogRecords.indexField(index), CatalogRecords.encode(current.withMappings(next)));
            return writes.done(next);
        });
    }

    @Override
    public void updateSettings(String index, io.qdrant.esgateway.domain.index.IndexSettings settings) {
        change("changing the settings of [" + index + "]", snap -> {
            IndexMetadata current = snap.view().index(index).orElseThrow(() -> GatewayException.indexNotFound(index));
            Writes writes = new Writes(snap);
            writes.put(Kind.INDEX, CatalogRecords.indexField(index),
                    CatalogRecords.encode(current.withSettings(settings)));
            return writes.done(null);
        });
    }

    @Override
    public boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan) {
        requireDistinct(plan.aliases());
        if (plan.aliases().size() > limits.aliases()) {
            throw tooManyAliases(plan.aliases().size());
        }
        return change("applying alias actions", snap -> {
            CatalogView view = snap.view();
            Writes writes = new Writes(snap);
            if (view.version() != expectedVersion) {
                return writes.done(false);
            }
            Set<String> remaining = new HashSet<>(view.indices().keySet());
            for (String name : plan.removedIndices()) {
                if (remaining.remove(name)) {
                    removeIndex(view, name, writes);
                }
            }
            for (AliasMetadata alias : plan.aliases()) {
                if (!remaining.contains(alias.index())) {
                    throw GatewayException.indexNotFound(alias.index());
                }
            }
            for (AliasMetadata alias : view.aliases()) {
                writes.delete(Kind.ALIAS, CatalogRecords.aliasField(alias));
            }
            for (AliasMetadata alias : plan.aliases()) {
                writes.put(Kind.ALIAS, CatalogRecords.aliasField(alias), CatalogRecords.encode(alias));
            }
            writes.forceChange = true;
            return writes.done(true);
        });
    }

    private GatewayException tooManyAliases(int count) {
        return GatewayException.validationFailed(List.of("this action would leave [" + count
                + "] aliases, more than the catalog supports [" + limits.aliases() + "]"));
    }

    private static void removeIndex(CatalogView view, String name, Writes writes) {
        writes.delete(Kind.INDEX, CatalogRecords.indexField(name));
        for (AliasMetadata alias : view.aliasesOf(name)) {
            writes.delete(Kind.ALIAS, CatalogRecords.aliasField(alias));
        }
        writes.dataGenerations.put(name, false);
        view.index(name).ifPresent(index -> writes.counters.add(index.uuid()));
    }

    /**
     * The writes one change makes, in order (a field put after a delete of the same field wins), checked against the
     * record and catalog size limits; and the change's result.
     */
    private final class Writes {
        private final Snapshot base;
        /** Per kind: field → new value, or null to delete. */
        final Map<Kind, Map<String, String>> records = new EnumMap<>(Kind.class);
        /** Index name → true to start its write generation at 0, false to remove it. */
        final Map<String, Boolean> dataGenerations = new LinkedHashMap<>();
        /** The uuids of removed indices, whose sequence number counters go with them. */
        final Set<String> counters = new LinkedHashSet<>();
        boolean forceChange;
        Object result;

        Writes(Snapshot base) {
            this.base = base;
        }

        void put(Kind kind, String field, String value) {
            if (value.length() > limits.recordBytes()) {
                throw GatewayException.illegalArgument("the " + kind.name().toLowerCase(java.util.Locale.ROOT)
                        + " [" + field + "] takes [" + value.length() + "] bytes in the catalog, more than the ["
                        + limits.recordBytes() + "] one record may take");
            }
            records.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(field, value);
        }

        void delete(Kind kind, String field) {
            records.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(field, null);
        }

        boolean isEmpty() {
            return !forceChange && dataGenerations.isEmpty() && records.values().stream().allMatch(Map::isEmpty);
        }

        <T> Writes done(T value) {
            this.result = value;
            if (!isEmpty()) {
                long bytes = base.bytes();
                for (Map.Entry<Kind, Map<String, String>> kind : records.entrySet()) {
                    Map<String, String> before = base.records().getOrDefault(kind.getKey(), Map.of());
                    for (Map.Entry<String, String> e : kind.getValue().entrySet()) {
                        String old = before.get(e.getKey());
                        if (old != null) {
                            bytes -= e.getKey().length() + old.length();
                        }
                        if (e.getValue() != null) {
                            bytes += e.getKey().length() + e.getValue().length();
                        }
                    }
                }
                if (bytes > limits.snapshotBytes() && bytes > base.bytes()) {
                    throw GatewayException.validationFailed(List.of("this action would grow the catalog to ["
                            + bytes + "] bytes, more than the [" + limits.snapshotBytes()
                            + "] it supports"));
                }
            }
            return this;
        }
    }

    /**
     * Decides a change on the current snapshot and applies it in one transaction, again on the new snapshot each
     * time another change got in first; see the class comment for a lost reply.
     */
    @SuppressWarnings("unchecked")
    private <T> T change(String operation, Function<Snapshot, Writes> decide) {
        String mark = prefix + "catalog:change:" + UUID.randomUUID();
        for (int attempt = 1; attempt <= CHANGE_ATTEMPTS; attempt++) {
            Attempt outcome = call(operation, jedis -> attempt(jedis, operation, mark, decide));
            if (outcome.done()) {
                return (T) outcome.result();
            }
            if (attempt > 2) {
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(1, 2 + Math.min(attempt, 20)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw GatewayException.backendUnavailable("catalog: " + operation + " was interrupted", e);
                }
            }
        }
        throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl() + ": " + operation
                + " lost the race against other changes " + CHANGE_ATTEMPTS + " times; nothing was changed, retry",
                null);
    }

    /** One try: done with its result, or not done (the catalog moved, nothing was written). */
    private record Attempt(boolean done, Object result) {
    }

    private Attempt attempt(Jedis jedis, String operation, String mark, Function<Snapshot, Writes> decide) {
        jedis.watch(genKey);
        Writes writes;
        try {
            writes = decide.apply(currentOn(jedis));
        } catch (RuntimeException e) {
            jedis.unwatch();
            throw e;
        }
        if (writes.isEmpty()) {
            jedis.unwatch();
            return new Attempt(true, writes.result);
        }
        Transaction t = jedis.multi();
        for (Map.Entry<Kind, Map<String, String>> kind : writes.records.entrySet()) {
            String hash = prefix + kind.getKey().hash;
            for (Map.Entry<String, String> e : kind.getValue().entrySet()) {
                if (e.getValue() == null) {
                    t.hdel(hash, e.getKey());
                } else {
                    t.hset(hash, e.getKey(), e.getValue());
                }
            }
        }
        writes.dataGenerations.forEach((name, start) -> {
            if (start) {
                t.hset(dataGenKey, name, "0");
            } else {
                t.hdel(dataGenKey, name);
            }
        });
        writes.counters.forEach(uuid -> t.del(prefix + "seq:" + uuid, prefix + "tomb:" + uuid,
                prefix + "tombx:" + uuid));
        t.incr(genKey);
        t.set(mark, "1", SetParams.setParams().ex(CHANGE_MARK_SECONDS));
        // announced in the same transaction: a change that is made is always announced
        t.eval(Invalidations.ANNOUNCE, invalidations.announceKeys(List.of()),
                invalidations.announceArgs("", List.of(genKey, epochKey)));
        List<Object> replies;
        try {
            if (faults != null) {
                faults.beforeExec(jedis);
            }
            replies = t.exec();
            if (faults != null) {
                faults.afterExec();
            }
        } catch (JedisConnectionException lost) {
            return settle(operation, mark, writes.result, lost);
        }
        if (replies == null) {
            return new Attempt(false, null);
        }
        for (Object reply : replies) {
            if (reply instanceof JedisDataException e) {
                throw e;
            }
        }
        awaitReplicas(jedis, Invalidations.Announced.of(
                replies.get(replies.size() - 1)), operation);
        return new Attempt(true, writes.result);
    }

    /**
     * Waits until every replica holding a lease forgot the catalog generation it knew (see
     * {@link Invalidations}); the change is made either way, and a failure
     * here is reported as unavailable without replaying it.
     */
    private void awaitReplicas(Jedis jedis, Invalidations.Announced announced,
                               String operation) {
        try {
            invalidations.await(jedis, announced, "", "catalog: " + operation);
        } catch (JedisException e) {
            throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl() + ": " + operation
                    + " is made, but whether every replica has seen it is unknown: " + e.getMessage(), e);
        }
    }

    /**
     * The reply of {@code EXEC} was lost: on another connection, find out whether the change was applied, fencing it
     * off if it was not. Applied: done. Fenced: not done (decided again). Unknown: fails as unavailable, never
     * replayed.
     */
    private Attempt settle(String operation, String mark, Object result, JedisConnectionException lost) {
        try (Jedis other = pool.getResource()) {
            Object applied = script(other, SETTLE, List.of(mark, genKey), List.of());
            LOG.log(Level.INFO, "catalog: the reply to " + operation + " was lost; the change was "
                    + (Long.valueOf(1).equals(applied) ? "applied" : "not applied and is fenced off"));
            if (Long.valueOf(1).equals(applied)) {
                // its announcement's number is unknown; every later one is at least as high
                String seq = other.get(invalidations.seqKey());
                awaitReplicas(other, new Invalidations.Announced(
                        seq == null ? 0 : Long.parseLong(seq), false), operation);
            }
            return Long.valueOf(1).equals(applied) ? new Attempt(true, result) : new Attempt(false, null);
        } catch (JedisException e) {
            e.addSuppressed(lost);
            throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl() + ": " + operation
                    + " may or may not have been applied (the reply was lost and the server cannot be asked: "
                    + e.getMessage() + "); check the catalog before retrying", e);
        }
    }

    // ------------------------------------------------------------------------------------------ plumbing

    /**
     * Runs {@code work} on a pooled connection; any Redis failure becomes {@code BACKEND_UNAVAILABLE}. A connection
     * failure also drops every idle connection (after a server restart they are all dead) and, for {@code work} that
     * is safe to run again (it changes nothing, or fails before its change is sent), runs it once more on a new one.
     */
    private <T> T call(String operation, Function<Jedis, T> work) {
        return call(operation, work, true);
    }

    private <T> T call(String operation, Function<Jedis, T> work, boolean again) {
        if (closed) {
            throw GatewayException.backendUnavailable("the catalog at " + settings.displayUrl() + " is closed", null);
        }
        try (Jedis jedis = pool.getResource()) {
            return work.apply(jedis);
        } catch (JedisConnectionException e) {
            pool.clear();
            if (again) {
                try {
                    return call(operation, work, false);
                } catch (GatewayException second) {
                    second.addSuppressed(e);
                    throw second;
                }
            }
            throw unavailable(operation, e);
        } catch (JedisException e) {
            throw unavailable(operation, e);
        }
    }

    private GatewayException unavailable(String operation, JedisException e) {
        return GatewayException.backendUnavailable("the catalog at " + settings.displayUrl() + ": " + operation
                + " failed: " + e.getMessage(), e);
    }

    /** Runs a script by its digest, loading it first if the server does not have it (after a restart). */
    private Object script(Jedis jedis, String source, List<String> keys, List<String> args) {
        String sha = shas.get(source);
        if (sha != null) {
            try {
                return jedis.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                // the server restarted or flushed its scripts: load it again below
            }
        }
        shas.put(source, jedis.scriptLoad(source));
        return jedis.evalsha(shas.get(source), keys, args);
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    private static long parseLong(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }

    private static void requireDistinct(List<AliasMetadata> aliases) {
        Set<List<String>> seen = new HashSet<>();
        for (AliasMetadata alias : aliases) {
            if (!seen.add(List.of(alias.alias(), alias.index()))) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] on index [" + alias.index()
                        + "] is listed twice");
            }
        }
    }
}
