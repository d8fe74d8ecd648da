package io.qdrant.esgateway.adapter.out.cache.redis;

import io.qdrant.esgateway.adapter.out.redis.Invalidations;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.net.ssl.SSLParameters;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The shared response cache on Valkey/Redis. Keys: {@code <prefix>rc:g:<index uuid>} holds an index's data
 * generation (a counter, no TTL: never evicted under a {@code volatile-*} policy); {@code <prefix>rc:e:<key>} is a
 * hash of the entry's ticket tag ({@code t}: the cache's epoch, then its generations, comma-separated) and answer
 * ({@code b}), with the TTL. {@code <prefix>rc:epoch} is the cache's epoch, new whenever the server runs anew
 * ({@code <prefix>rc:run}: the run id that set it), set by every new connection before its first command: a server
 * that came back with older generations (a snapshot, a restored backup, lost writes) never matches an entry or a
 * ticket of before its restart, since both carry the epoch they were read in.
 * A lookup is one pipelined round trip ({@code MGET} of the epoch and the generations, {@code HMGET} of the entry;
 * the tag is compared here, see {@link #pipelinedLookup}); a publish is one script call (compare the generations with the
 * ticket's, then store) — atomic on the server, so no write's generation move can fall between the check and the
 * store. A bump is one script call: the {@code INCR}s and their announcement to the replicas holding leases
 * ({@link Invalidations}), then, when some hold one, the wait for them.
 *
 * <p>A conditional lookup ({@link #lookupIf}) also reads other keys' values in the same {@code MGET} (the shared
 * catalog's generation and epoch): one round trip for the catalog's freshness and the cache entry.
 *
 * <p>Nothing is retried blindly: every command is safe to repeat (a lookup reads; a publish re-checks its ticket;
 * an extra bump only misses the cache); a script is sent again after {@code NOSCRIPT} (it did not run) and every
 * command once on a new connection after a broken one.
 */
final class RedisResponseCache implements RedisResponseCaches.Handle {
    private static final byte[] TAG_FIELD = {'t'};
    private static final byte[] ANSWER_FIELD = {'b'};
    /** Generation key names remembered at most; past it they are made again (long-deleted indices forgotten). */
    private static final int GENERATION_KEY_NAMES = 100_000;
    private static final String PUBLISH = """
            local tag = (redis.call('GET', KEYS[2]) or '') .. '|'
            for i = 3, #KEYS do
              tag = tag .. (redis.call('GET', KEYS[i]) or '0') .. ','
            end
            if tag ~= ARGV[1] then
              return 0
            end
            redis.call('HSET', KEYS[1], 't', ARGV[1], 'b', ARGV[2])
            redis.call('PEXPIRE', KEYS[1], ARGV[3])
            return 1
            """;
    /**
     * Run on every new connection before it is used: when the server's run id ({@code INFO server}) is not the one
     * that set the cache's epoch ({@code KEYS[1]}), or there is no epoch, starts a new epoch ({@code KEYS[2]} :=
     * {@code ARGV[1]}) for this run. A server that restarted — from its own files, an older snapshot or a restored
     * backup, or a replica promoted in its place — is a new run, so every entry and ticket of the state it came
     * back from carries an epoch that is never current again.
     */
    private static final String EPOCH = io.qdrant.esgateway.adapter.out.redis.ServerRunScript.RUN_ID + """
            local epoch = redis.call('GET', KEYS[2])
            if epoch and redis.call('GET', KEYS[1]) == run then
              return epoch
            end
            redis.call('SET', KEYS[2], ARGV[1])
            redis.call('SET', KEYS[1], run)
            return ARGV[1]
            """;

    private final JedisPool pool;
    private final String prefix;
    /** The generation keys' names by index uuid, made once each (every request of a replica names them). */
    private final Map<String, String> generationKeyNames = new ConcurrentHashMap<>();
    private final String epochKeyName;
    private final byte[] ttlMillis;
    private final int maxEntryBytes;
    private final byte[] publishSha;
    /** How this replica's writes are announced to the replicas holding leases. */
    private final Invalidations invalidations;
    /** This replica's lease and what it knows under it; null without a lease term. */
    private final Leases leases;

    private RedisResponseCache(JedisPool pool, RedisResponseCaches.Settings settings, byte[] publishSha) {
        this.pool = pool;
        this.prefix = settings.prefix();
        this.epochKeyName = prefix + "rc:epoch";
        this.ttlMillis = bytes(Long.toString(settings.ttl().toMillis()));
        this.maxEntryBytes = settings.maxEntryBytes();
        this.publishSha = publishSha;
        this.invalidations = new Invalidations(prefix, settings.leaseTerm());
        this.leases = settings.leaseTerm().isZero() ? null : new Leases(invalidations,
                JedisURIHelper.getHostAndPort(settings.url()),
                clientConfig(settings.url(), (int) settings.timeout().toMillis(), 0),
                work -> call("the response cache's lease", work::apply)).start();
    }

    static RedisResponseCache open(RedisResponseCaches.Settings settings) {
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(settings.poolSize());
        config.setMaxIdle(settings.poolSize());
        config.setMinIdle(Math.min(2, settings.poolSize()));
        config.setTestWhileIdle(true);
        config.setJmxEnabled(false);
        // every connection busy: wait for one as long as for a reply, then fail (the read is computed without the cache)
        config.setBlockWhenExhausted(true);
        config.setMaxWait(settings.timeout());
        int timeout = (int) settings.timeout().toMillis();
        byte[] runKey = bytes(settings.prefix() + "rc:run");
        byte[] epochKey = bytes(settings.prefix() + "rc:epoch");
        byte[] epochScript = bytes(EPOCH);
        // every connection checks the server's run before its first command (a restart breaks every older one)
        JedisPool pool = new JedisPool(config, new io.qdrant.esgateway.adapter.out.redis.ServerRunCheck(
                JedisURIHelper.getHostAndPort(settings.url()), clientConfig(settings.url(), timeout, timeout),
                jedis -> jedis.eval(epochScript, List.of(runKey, epochKey),
                        List.of(bytes(java.util.UUID.randomUUID().toString())))));
        try (Jedis jedis = pool.getResource()) {
            checkEvictionPolicy(jedis);
            byte[] publish = jedis.scriptLoad(bytes(PUBLISH));
            return new RedisResponseCache(pool, settings, publish);
        } catch (JedisException e) {
            pool.close();
            throw unavailable("connecting to " + redacted(settings.url()), e);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * The connection settings of a URL: credentials, database, and for {@code rediss://} TLS (the JVM's trust store)
     * with the server's host name verified against its certificate (as for {@code https}). A reply timeout of 0 waits
     * without limit (a subscription).
     */
    private static JedisClientConfig clientConfig(java.net.URI url, int timeoutMillis, int replyTimeoutMillis) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeoutMillis).socketTimeoutMillis(replyTimeoutMillis)
                .user(JedisURIHelper.getUser(url)).password(JedisURIHelper.getPassword(url))
                .database(JedisURIHelper.getDBIndex(url));
        if (JedisURIHelper.isRedisSSLScheme(url)) {
            SSLParameters verifyHost = new SSLParameters();
            verifyHost.setEndpointIdentificationAlgorithm("HTTPS");
            config.ssl(true).sslParameters(verifyHost);
        }
        return config.build();
    }

    /** An {@code allkeys-*} policy may evict a generation, which would let an old entry match again. */
    private static void checkEvictionPolicy(Jedis jedis) {
        String policy;
        try {
            policy = jedis.configGet("maxmemory-policy").getOrDefault("maxmemory-policy", "");
        } catch (JedisException e) {
            // CONFIG may be disabled (managed servers): the documented requirement stands unchecked
            System.getLogger(RedisResponseCache.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot read maxmemory-policy; the response cache needs a volatile-* policy or noeviction");
            return;
        }
        if (policy.startsWith("allkeys-")) {
            throw new IllegalStateException("the Valkey/Redis server's maxmemory-policy is " + policy
                    + ": it may evict the response cache's generations; use volatile-lru (or another volatile-*"
                    + " policy, or noeviction)");
        }
    }

    private static String redacted(java.net.URI url) {
        return url.getScheme() + "://" + url.getHost() + ":" + url.getPort();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private byte[] generationKey(String index) {
        return bytes(generationKeyName(index));
    }

    private String generationKeyName(String index) {
        if (generationKeyNames.size() > GENERATION_KEY_NAMES) {
            generationKeyNames.clear();
        }
        return generationKeyNames.computeIfAbsent(index, i -> prefix + "rc:g:" + i);
    }

    private byte[] epochKey() {
        return bytes(epochKeyName);
    }

    private byte[] entryKey(String key) {
        return bytes(prefix + "rc:e:" + key);
    }

    private List<byte[]> keys(String key, List<String> indices) {
        List<byte[]> keys = new ArrayList<>(indices.size() + 2);
        keys.add(entryKey(key));
        keys.add(epochKey());
        indices.forEach(i -> keys.add(generationKey(i)));
        return keys;
    }

    private static String tag(String epoch, List<Long> generations) {
        StringBuilder tag = new StringBuilder(epoch).append('|');
        generations.forEach(g -> tag.append(g).append(','));
        return tag.toString();
    }

    @Override
    public Lookup lookup(String key, List<String> indices) {
        return pipelinedLookup(key, indices, List.of(), List.of()).orElseThrow();
    }

    @Override
    public Optional<Lookup> lookupIf(String key, List<String> indices, List<String> checked, List<String> values) {
        if (checked.size() != values.size()) {
            throw new IllegalArgumentException("one value per checked key");
        }
        return pipelinedLookup(key, indices, checked, values);
    }

    /**
     * A lookup in one round trip without a script: {@code MGET} of the checked keys and the generations, then
     * {@code HMGET} of the entry, pipelined. Not atomic, and it need not be: the {@code MGET} reads every checked
     * value and generation at one instant, after the request started, so anything acknowledged before the request
     * had already moved them; an entry read after it whose tag equals those generations was published (its ticket
     * checked in the publish script) while they were current — at or after that instant it was the current answer.
     * An entry moved on in between carries another tag and is a miss. (A script did the same on the server at a
     * higher cost: a script call costs Redis several times the two reads.)
     */
    private Optional<Lookup> pipelinedLookup(String key, List<String> indices, List<String> checked,
                                             List<String> values) {
        String[] names = names(indices, checked);
        byte[][] read = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            read[i] = bytes(names[i]);
        }
        byte[] entry = entryKey(key);
        long stamp = leases == null ? -1 : leases.stamp();
        Object[] replies = call("looking up", jedis -> {
            Pipeline pipeline = jedis.pipelined();
            redis.clients.jedis.Response<List<byte[]>> state = pipeline.mget(read);
            redis.clients.jedis.Response<List<byte[]>> stored = pipeline.hmget(entry, TAG_FIELD, ANSWER_FIELD);
            pipeline.sync();
            return new Object[] {state.get(), stored.get()};
        });
        @SuppressWarnings("unchecked")
        List<byte[]> state = (List<byte[]>) replies[0];
        String[] now = new String[names.length];
        now[0] = state.get(0) == null ? "" : new String(state.get(0), StandardCharsets.UTF_8);
        for (int i = 1; i < names.length; i++) {
            byte[] v = state.get(i);
            now[i] = v == null ? "0" : new String(v, StandardCharsets.UTF_8);
        }
        if (leases != null) {
            leases.learn(stamp, names, now);
        }
        String epoch = now[0];
        for (int i = 0; i < checked.size(); i++) {
            if (!now[1 + i].equals(values.get(i))) {
                return Optional.empty();
            }
        }
        List<Long> generations = new ArrayList<>(indices.size());
        StringBuilder tag = new StringBuilder(epoch).append('|');
        for (int i = 0; i < indices.size(); i++) {
            long g = Long.parseLong(now[1 + checked.size() + i]);
            generations.add(g);
            tag.append(g).append(',');
        }
        @SuppressWarnings("unchecked")
        List<byte[]> e = (List<byte[]>) replies[1];
        Optional<byte[]> answer = e.get(0) != null && e.get(1) != null
                && new String(e.get(0), StandardCharsets.UTF_8).contentEquals(tag)
                ? Optional.of(e.get(1)) : Optional.empty();
        return Optional.of(new Lookup(new Ticket(key, indices, generations, epoch), answer));
    }

    /** The names a lookup reads: the cache's epoch, the checked keys, the indices' generations. */
    private String[] names(List<String> indices, List<String> checked) {
        String[] names = new String[1 + checked.size() + indices.size()];
        names[0] = epochKeyName;
        for (int i = 0; i < checked.size(); i++) {
            names[1 + i] = checked.get(i);
        }
        for (int i = 0; i < indices.size(); i++) {
            names[1 + checked.size() + i] = generationKeyName(indices.get(i));
        }
        return names;
    }

    /**
     * The generations {@link #lookupIf} would return now, from what this replica's lease lets it know: every value
     * learned from an earlier lookup, none forgotten since (no change to them was announced), the lease running.
     */
    @Override
    public Optional<Generations> knownGenerations(List<String> indices, List<String> checked, List<String> values) {
        if (leases == null) {
            return Optional.empty();
        }
        String[] now = leases.known(names(indices, checked));
        if (now == null) {
            return Optional.empty();
        }
        for (int i = 0; i < checked.size(); i++) {
            if (!now[1 + i].equals(values.get(i))) {
                return Optional.empty();
            }
        }
        List<Long> generations = new ArrayList<>(indices.size());
        for (int i = 0; i < indices.size(); i++) {
            generations.add(Long.parseLong(now[1 + checked.size() + i]));
        }
        return Optional.of(new Generations(indices, generations, now[0]));
    }

    @Override
    public Published publish(Ticket ticket, byte[] answer) {
        if (answer.length > maxEntryBytes) {
            return Published.TOO_LARGE;
        }
        Object reply = script(publishSha, PUBLISH, keys(ticket.key(), ticket.indices()),
                List.of(bytes(tag(ticket.epoch(), ticket.generations())), answer, ttlMillis), "publishing");
        return Long.valueOf(1).equals(reply) ? Published.PUBLISHED : Published.STALE_TICKET;
    }

    @Override
    public void bump(Collection<String> indices) {
        if (indices.isEmpty()) {
            return;
        }
        List<String> keys = new ArrayList<>(indices.size());
        indices.forEach(i -> keys.add(generationKeyName(i)));
        String origin = leases == null ? "" : leases.id();
        call("moving a data generation", jedis -> {
            Invalidations.Announced announced =
                    Invalidations.Announced.of(jedis.eval(
                            Invalidations.ANNOUNCE,
                            invalidations.announceKeys(keys), invalidations.announceArgs(origin, keys)));
            if (leases != null) {
                leases.forget(keys);
            }
            invalidations.await(jedis, announced, origin, "a write");
            return null;
        });
    }

    @Override
    public void ping() {
        call("ping", Jedis::ping);
    }

    private Object script(byte[] sha, String source, List<byte[]> keys, List<byte[]> args, String what) {
        return call(what, jedis -> {
            try {
                return jedis.evalsha(sha, keys, args);
            } catch (JedisNoScriptException e) {
                // the server lost its scripts (restart, SCRIPT FLUSH); this one did not run: load it and run it
                return jedis.eval(bytes(source), keys, args);
            }
        });
    }

    /**
     * Runs {@code work} on a pooled connection. A broken connection (after a server restart every pooled one is)
     * drops the idle ones and runs {@code work} once more on a new connection: every operation here may run twice —
     * a lookup reads, a publish stores the same answer under the same ticket check, and a generation moved twice
     * only makes more entries unreachable. Any other failure, or a second one, is {@code BACKEND_UNAVAILABLE}.
     */
    private <T> T call(String what, Function<Jedis, T> work) {
        try (Jedis jedis = pool.getResource()) {
            return work.apply(jedis);
        } catch (JedisConnectionException first) {
            pool.clear();
            try (Jedis jedis = pool.getResource()) {
                return work.apply(jedis);
            } catch (JedisException e) {
                e.addSuppressed(first);
                throw unavailable(what, e);
            }
        } catch (JedisException e) {
            throw unavailable(what, e);
        }
    }

    private static GatewayException unavailable(String what, Exception cause) {
        return new GatewayException(ErrorKind.BACKEND_UNAVAILABLE,
                "response cache (Valkey/Redis) unavailable: " + what + " failed: " + cause.getMessage(),
                java.util.Map.of(), cause);
    }

    @Override
    public io.qdrant.esgateway.adapter.out.redis.KnownValues knownValues() {
        return leases == null ? io.qdrant.esgateway.adapter.out.redis.KnownValues.NONE : leases;
    }

    /** This replica's lease; null without a term (for tests). */
    Leases leases() {
        return leases;
    }

    @Override
    public void close() {
        if (leases != null) {
            leases.close();
        }
        pool.close();
    }
}
