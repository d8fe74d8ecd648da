package io.qdrant.esgateway.adapter.out.cache.redis;

import io.qdrant.esgateway.adapter.out.redis.Invalidations;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;

/**
 * A replica's side of the leases ({@link Invalidations}): what this replica knows of the current values of the keys
 * its lookups read, and the lease under which it may use that knowledge instead of asking the server.
 *
 * <p>Values are learned from the lookups' own reads ({@link #learn}), only when nothing was forgotten between the
 * read's sending and its reply. They are used ({@link #known}) only while the lease runs: this replica is subscribed,
 * and its local deadline — the last renewal's sending time plus the term less a tenth — has not passed; the server
 * ends that lease a term after it processed the renewal, later than the deadline. An announced change makes the
 * subscriber forget the changed keys, then acknowledge it; a writer waits for that (or for the lease's end) before
 * acknowledging its change. Whatever could have been missed — the subscription broke, or a renewal came after the
 * deadline (a writer may have stopped waiting for this replica), or a renewal found the registry gone (the server's
 * data was flushed) — makes the replica forget everything.
 *
 * <p>Reads are lock-free ({@link #version} is even while nothing is being forgotten, and moves by two each time);
 * learning and forgetting take the lock.
 */
final class Leases implements AutoCloseable, io.qdrant.esgateway.adapter.out.redis.KnownValues {
    private static final System.Logger LOG = System.getLogger(Leases.class.getName());

    private final Invalidations invalidations;
    private final HostAndPort server;
    private final JedisClientConfig subscriberConfig;
    /** Runs a command on a pooled connection (the cache's pool). */
    private final Function<Function<Jedis, Object>, Object> commands;
    private final String id = UUID.randomUUID().toString();
    private final long termNanos;
    private final long marginNanos;
    private final Object lock = new Object();
    private final Map<String, String> values = new ConcurrentHashMap<>();
    private volatile long version;
    /** {@link System#nanoTime()} up to which the knowledge may be used. */
    private volatile long deadline;
    private volatile boolean leased;
    private volatile boolean subscribed;
    private volatile boolean closed;
    private volatile long heartbeatSeen;
    private long heartbeatSent;
    private volatile Jedis subscription;
    private boolean warned;
    private final Thread subscriber;
    private final Thread renewer;
    /** Runs on the subscriber before it acts on an announced change: a test may hold it up. Nothing otherwise. */
    volatile Runnable beforeForgetting = () -> { };

    Leases(Invalidations invalidations, HostAndPort server, JedisClientConfig subscriberConfig,
           Function<Function<Jedis, Object>, Object> commands) {
        this.invalidations = invalidations;
        this.server = server;
        this.subscriberConfig = subscriberConfig;
        this.commands = commands;
        this.termNanos = invalidations.term().toNanos();
        this.marginNanos = termNanos / 10;
        this.subscriber = Thread.ofPlatform().daemon().name("qeg-leases-subscriber").unstarted(this::subscribe);
        this.renewer = Thread.ofPlatform().daemon().name("qeg-leases-renewer").unstarted(this::renew);
    }

    Leases start() {
        subscriber.start();
        renewer.start();
        return this;
    }

    String id() {
        return id;
    }

    Invalidations invalidations() {
        return invalidations;
    }

    /** The stamp to give {@link #learn} for a read sent now, or -1 when nothing it reads may be learned. */
    @Override
    public long stamp() {
        long v = version;
        return usable() && (v & 1) == 0 ? v : -1;
    }

    private boolean usable() {
        return leased && subscribed && System.nanoTime() - deadline < 0;
    }

    /** Records what a read stamped {@code stamp} found, unless something was forgotten since it was sent. */
    @Override
    public void learn(long stamp, String[] keys, String[] read) {
        if (stamp < 0) {
            return;
        }
        synchronized (lock) {
            if (version != stamp) {
                return;
            }
            for (int i = 0; i < keys.length; i++) {
                values.put(keys[i], read[i]);
            }
        }
    }

    /** The values of {@code keys} if all are known and the lease runs; null otherwise. */
    String[] known(String[] keys) {
        long v = version;
        if ((v & 1) != 0 || !usable()) {
            return null;
        }
        String[] found = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            found[i] = values.get(keys[i]);
            if (found[i] == null) {
                return null;
            }
        }
        return version == v ? found : null;
    }

    @Override
    public boolean current(String[] keys, String[] expected) {
        String[] now = known(keys);
        return now != null && java.util.Arrays.equals(now, expected);
    }

    /** Forgets {@code keys} (before a change to them is acknowledged). */
    void forget(Collection<String> keys) {
        synchronized (lock) {
            version++;
            keys.forEach(values::remove);
            version++;
        }
    }

    private void forgetAll() {
        synchronized (lock) {
            version++;
            values.clear();
            version++;
        }
    }

    /** How many values are known (for tests). */
    int size() {
        return values.size();
    }

    // ------------------------------------------------------------------ the subscription

    private void subscribe() {
        while (!closed) {
            try (Jedis jedis = new Jedis(server, subscriberConfig)) {
                subscription = jedis;
                if (closed) {
                    return;
                }
                jedis.subscribe(new JedisPubSub() {
                    @Override
                    public void onSubscribe(String channel, int count) {
                        subscribed = true;
                        LockSupport.unpark(renewer); // take the lease now
                    }

                    @Override
                    public void onMessage(String channel, String message) {
                        handle(message);
                    }
                }, invalidations.channel());
            } catch (redis.clients.jedis.exceptions.JedisDataException e) {
                // refused (a user without pub/sub on the channel): answers keep asking the server
                if (!warned) {
                    warned = true;
                    LOG.log(System.Logger.Level.WARNING, "the response cache cannot subscribe to "
                            + invalidations.channel() + " (" + e.getMessage() + "); this replica takes no lease,"
                            + " and every cached answer costs a round trip");
                }
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.DEBUG, "lease subscription broke; subscribing again", e);
                }
            } finally {
                subscribed = false;
                leased = false;
                forgetAll(); // what was announced meanwhile is unknown
            }
            if (!closed) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    private void handle(String message) {
        String[] lines = message.split("\n");
        if (lines[0].equals("h")) {
            if (lines.length == 3 && lines[1].equals(id)) {
                heartbeatSeen = Long.parseLong(lines[2]);
            }
            return;
        }
        if (!lines[0].equals("c") || lines.length < 3) {
            return;
        }
        beforeForgetting.run();
        forget(List.of(lines).subList(3, lines.length));
        if (lines[2].equals(id)) {
            return; // this replica's own change: its writer forgot the keys before it waited
        }
        try {
            commands.apply(jedis -> jedis.hset(invalidations.acksKey(), id, lines[1]));
        } catch (RuntimeException e) {
            // the writer waits for this lease to end instead
            LOG.log(System.Logger.Level.DEBUG, "acknowledging change " + lines[1] + " failed", e);
        }
    }

    // ------------------------------------------------------------------ the lease

    private void renew() {
        long pause = termNanos / 4;
        while (!closed) {
            if (subscribed) {
                renewOnce();
            }
            LockSupport.parkNanos(pause);
        }
    }

    private void renewOnce() {
        if (heartbeatSent > 0 && heartbeatSeen < heartbeatSent && leased) {
            // the last heartbeat has not come back: the subscription no longer delivers; start it again
            LOG.log(System.Logger.Level.WARNING, "the response cache's lease subscription stopped delivering;"
                    + " subscribing again");
            leased = false;
            closeSubscription();
            return;
        }
        boolean anew = !leased || System.nanoTime() - deadline >= 0;
        long sent = System.nanoTime();
        long beat = ++heartbeatSent;
        boolean fresh;
        try {
            Object reply = commands.apply(jedis -> jedis.eval(Invalidations.LEASE,
                    List.of(invalidations.leasesKey(), invalidations.acksKey(), invalidations.sinceKey(),
                            invalidations.seqKey(), invalidations.termKey()),
                    List.of(id, Long.toString(invalidations.term().toMillis()), invalidations.channel(),
                            "h\n" + id + "\n" + beat, anew ? "1" : "0")));
            fresh = Long.valueOf(1).equals(((List<?>) reply).get(1));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "renewing the response cache's lease failed", e);
            heartbeatSent--; // no heartbeat was published
            return;
        }
        synchronized (lock) {
            if (anew || fresh || System.nanoTime() - deadline >= 0) {
                // the lease lapsed (or is new), or the registry was lost (a flush: what was known may be gone): a
                // writer may have stopped waiting for this replica
                forgetAll();
            }
            deadline = sent + termNanos - marginNanos;
            leased = subscribed;
        }
    }

    private void closeSubscription() {
        Jedis current = subscription;
        if (current != null) {
            try {
                current.disconnect();
            } catch (RuntimeException ignored) {
                // already broken
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        leased = false;
        forgetAll();
        closeSubscription();
        LockSupport.unpark(renewer);
        try {
            commands.apply(jedis -> jedis.hdel(invalidations.leasesKey(), id));
        } catch (RuntimeException e) {
            // the lease ends by itself within a term
        }
    }
}
