package io.qdrant.esgateway.adapter.out.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The writers' side of the replicas' leases: how a change to keys that replicas may know the values of (the response
 * cache's data generations, the catalog's generation and epoch) is announced, and how its writer waits, before it
 * acknowledges the change, until no replica can still use a value from before it.
 *
 * <p>A replica that answers from what it knows holds a <em>lease</em>: a field of {@code <prefix>inv:leases}, its id
 * to the server time (ms) the lease ends at, renewed while it is subscribed to {@code <prefix>inv}. It uses what it
 * knows only until a local deadline that falls before that end. A change is announced in the same atomic step that
 * makes it ({@link #ANNOUNCE}, or that script inside the change's {@code MULTI}): a sequence number
 * ({@code <prefix>inv:seq}) and the changed keys, published on {@code <prefix>inv}. A replica forgets those keys, then
 * acknowledges the number ({@code <prefix>inv:acks}, its id to the highest number it has acted on). The writer
 * acknowledges its change only when every lease that is still running has acknowledged that number ({@link #ACKED}):
 * a lease that ended belongs to a replica whose deadline has passed, and a replica that takes a lease anew forgets
 * everything first, and acknowledges the current number as it registers.
 *
 * <p>A server that lost the registry (a restart without persistence, a flush) cannot say which replicas hold leases.
 * {@code <prefix>inv:since} marks when the registry began, {@code <prefix>inv:term} the longest term a replica took a
 * lease for; while the registry is younger than that term (or the writer's own, if longer), writers wait: a lease
 * from before it has ended by then. This costs the first change on a new registry up to one term.
 *
 * <p>Every writer announces and waits, whether it holds a lease or not ({@code coordinate}, or no lease term): replicas
 * may differ while a mode is rolled out. A user that may not publish cannot subscribe either, so an announcement
 * that cannot be published is skipped, and the wait still covers any replica that holds a lease.
 *
 * <p>Assumes, as the server's own key expiry does, that its clock does not jump forward by more than the
 * replicas' margin (a tenth of the term).
 */
public final class Invalidations {
    /** The server time in ms as {@code now}; then whether every running lease acknowledged {@code seq}. */
    private static final String ACKED_BODY = """
            local since = redis.call('GET', since_key)
            if not since then
              redis.call('SET', since_key, now)
              since = now
            end
            term = math.max(term, tonumber(redis.call('GET', term_key) or '0'))
            if now < tonumber(since) + term then
              return 0
            end
            local leases = redis.call('HGETALL', leases_key)
            local done = 1
            for i = 1, #leases, 2 do
              local id = leases[i]
              if tonumber(leases[i + 1]) > now then
                if id ~= origin then
                  local acked = redis.call('HGET', acks_key, id)
                  if not acked or tonumber(acked) < seq then
                    done = 0
                  end
                end
              else
                redis.call('HDEL', leases_key, id)
                redis.call('HDEL', acks_key, id)
              end
            end
            return done
            """;
    private static final String NOW = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            """;

    /**
     * KEYS: seq, leases, acks, since, term, then keys to increment. ARGV: channel, origin (the writer's lease id, or
     * empty), the writer's own lease term (ms, 0 for none), then the names of the changed keys. Increments the keys, takes the next number, publishes
     * {@code c\n<seq>\n<origin>\n<name>...}; returns {@code {seq, done}} where {@code done} is whether nobody needs to
     * be waited for.
     */
    public static final String ANNOUNCE = NOW + """
            for i = 6, #KEYS do
              redis.call('INCR', KEYS[i])
            end
            local seq = redis.call('INCR', KEYS[1])
            local message = 'c\\n' .. seq .. '\\n' .. ARGV[2]
            for i = 4, #ARGV do
              message = message .. '\\n' .. ARGV[i]
            end
            -- a user that may not publish cannot subscribe either: its replicas hold no lease, and the wait below
            -- still waits for any replica that does
            pcall(redis.call, 'PUBLISH', ARGV[1], message)
            local leases_key, acks_key, since_key, term_key = KEYS[2], KEYS[3], KEYS[4], KEYS[5]
            local origin, term = ARGV[2], tonumber(ARGV[3])
            local function acked()
            """ + ACKED_BODY + """
            end
            return {seq, acked()}
            """;

    /** KEYS: leases, acks, since, term. ARGV: seq, origin, term (ms). 1 when every running lease acknowledged seq. */
    public static final String ACKED = NOW + """
            local leases_key, acks_key, since_key, term_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
            local seq, origin, term = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])
            """ + ACKED_BODY;

    /**
     * KEYS: leases, acks, since, seq, term. ARGV: id, term (ms), channel, heartbeat message, whether the lease is
     * taken anew (1) or renewed (0). Sets the lease's end to now + term, marks the registry's start if it has none
     * and its longest term,
     * publishes the heartbeat (the replica's proof that its subscription still delivers); a lease taken anew also
     * acknowledges the current number (its replica forgot everything it knew). Returns the current number, and 1 when
     * the registry had to start anew (it was lost: a flush; the replica then forgets everything it knew), else 0.
     */
    public static final String LEASE = NOW + """
            local fresh = 0
            if not redis.call('GET', KEYS[3]) then
              redis.call('SET', KEYS[3], now)
              fresh = 1
            end
            if tonumber(redis.call('GET', KEYS[5]) or '0') < tonumber(ARGV[2]) then
              redis.call('SET', KEYS[5], ARGV[2])
            end
            redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
            local seq = tonumber(redis.call('GET', KEYS[4]) or '0')
            if ARGV[5] == '1' then
              redis.call('HSET', KEYS[2], ARGV[1], seq)
            end
            redis.call('PUBLISH', ARGV[3], ARGV[4])
            return {seq, fresh}
            """;

    /** The longest a writer waits for the replicas (lease terms longer than a third of it are refused). */
    public static final Duration MAX_WAIT = Duration.ofSeconds(30);

    private final String prefix;
    private final Duration term;

    /**
     * @param term how long this replica's lease runs after its last renewal; zero when it holds none (it still
     *             announces its changes and waits for the replicas that do: replicas may differ in mode while one is
     *             rolled out)
     */
    public Invalidations(String prefix, Duration term) {
        if (term.isNegative() || term.multipliedBy(3).compareTo(MAX_WAIT) > 0) {
            throw new IllegalArgumentException("a lease term must be between 0 and " + MAX_WAIT.dividedBy(3));
        }
        this.prefix = prefix;
        this.term = term;
    }

    public Duration term() {
        return term;
    }

    /** The longest lease term any replica registered with. */
    public String termKey() {
        return prefix + "inv:term";
    }

    public String channel() {
        return prefix + "inv";
    }

    public String seqKey() {
        return prefix + "inv:seq";
    }

    public String leasesKey() {
        return prefix + "inv:leases";
    }

    public String acksKey() {
        return prefix + "inv:acks";
    }

    public String sinceKey() {
        return prefix + "inv:since";
    }

    /** The keys of {@link #ANNOUNCE}: the registry's, then {@code increment}. */
    public List<String> announceKeys(List<String> increment) {
        List<String> keys = new ArrayList<>(5 + increment.size());
        keys.addAll(List.of(seqKey(), leasesKey(), acksKey(), sinceKey(), termKey()));
        keys.addAll(increment);
        return keys;
    }

    /** The arguments of {@link #ANNOUNCE}. */
    public List<String> announceArgs(String origin, List<String> changed) {
        List<String> args = new ArrayList<>(3 + changed.size());
        args.addAll(List.of(channel(), origin, Long.toString(term.toMillis())));
        args.addAll(changed);
        return args;
    }

    /** What {@link #ANNOUNCE} replied: the change's number, and whether anybody must still be waited for. */
    public record Announced(long seq, boolean done) {
        public static Announced of(Object reply) {
            List<?> parts = (List<?>) reply;
            return new Announced((Long) parts.get(0), Long.valueOf(1).equals(parts.get(1)));
        }
    }

    /**
     * Waits on {@code jedis} until every running lease but {@code origin}'s acknowledged {@code announced}: asks the
     * server again after a pause that grows from 50 µs to 2 ms. A lease ends within a term of its last renewal, so this
     * takes at most about a term past the registry's grace; past {@link #MAX_WAIT}, it fails with a
     * {@link JedisException} (the change is made, but must not be acknowledged).
     */
    public void await(Jedis jedis, Announced announced, String origin, String what) {
        if (announced.done()) {
            return;
        }
        long giveUp = System.nanoTime() + MAX_WAIT.toNanos();
        long pause = 50_000;
        List<String> keys = List.of(leasesKey(), acksKey(), sinceKey(), termKey());
        List<String> args = List.of(Long.toString(announced.seq()), origin, Long.toString(term.toMillis()));
        while (true) {
            LockSupport.parkNanos(pause);
            if (Long.valueOf(1).equals(jedis.eval(ACKED, keys, args))) {
                return;
            }
            if (System.nanoTime() - giveUp > 0) {
                throw new JedisException(what + " is made, but replicas holding leases did not acknowledge it"
                        + " within " + MAX_WAIT.toMillis() + " ms");
            }
            pause = Math.min(pause * 2, 2_000_000);
        }
    }
}
