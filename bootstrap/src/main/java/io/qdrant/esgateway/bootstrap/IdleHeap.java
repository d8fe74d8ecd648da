package io.qdrant.esgateway.bootstrap;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What an idle gateway does with its heap (G1 only): give back every page the last burst touched, but keep room
 * for the next burst committed — committed memory that was never touched is not resident.
 *
 * <p>When no collection has run for {@code idleNanos} (as G1's own periodic collection decides idleness, JEP 346),
 * it <em>parks</em> the heap with two full collections: the first one with the maximum heap free ratio lowered to the
 * minimum, which shrinks the heap to the live set plus the minimum's headroom (not below the JVM's minimum heap size,
 * {@code -XX:MinHeapSize}) and unmaps the rest (the pages the burst touched leave the resident set); the
 * second one with the minimum free ratio raised for a moment, so that G1 grows the heap again to the live set plus
 * one young generation — freshly mapped pages, not resident until the next burst allocates into them. Then the
 * ratios are put back. The next burst starts with its young generation already in place, instead of growing the
 * heap through a series of collections and concurrent cycles from its minimum (a 10,000-document bulk load after
 * idling: 0 collections instead of ~8, see docs/benchmarks/README.md).
 *
 * <p>The JVM's own periodic collection is off in the shipped settings ({@code bootstrap/src/main/jvm/jvm.options}),
 * since it would shrink the parked heap again. Nothing here changes what the gateway answers.
 */
final class IdleHeap {
    /** What the parking needs from the JVM (the real one: {@link #hotSpot()}; a fake in the tests). */
    interface Jvm {
        /** Collections of every collector so far. */
        long collections();

        /** A full, stop-the-world collection ({@code System.gc()}), which also resizes the heap. */
        void fullCollection();

        /**
         * Waits until G1 has unmapped what the shrink gave up: it does that on a background task after the
         * collection (JDK 16+), and a region grown back before then keeps its touched, resident pages.
         */
        void settle();

        /** Bytes of the heap in use. */
        long heapUsed();

        long maxHeap();

        /** The young generation's size the JVM was given ({@code -Xmn}), or empty. */
        Optional<Long> youngSize();

        int flag(String name);

        void setFlag(String name, int value);
    }

    /** G1 unmaps a shrunk heap's regions within milliseconds; two seconds leave room on a busy machine. */
    static final long SETTLE_MILLIS = 2_000;
    static final String MIN_FREE = "MinHeapFreeRatio";
    static final String MAX_FREE = "MaxHeapFreeRatio";

    /** No request in flight or begun for this long before a parking (it stops the world twice). */
    static final long QUIET_REQUESTS_NANOS = 2_000_000_000L;

    private final Jvm jvm;
    private final RequestActivity requests;
    private final long idleNanos;
    private final LongSupplier clock;
    private long seenCollections = -1;
    private long quietSince;
    private boolean parked;
    private int parks;

    IdleHeap(Jvm jvm, RequestActivity requests, long idleNanos, LongSupplier clock) {
        this.jvm = jvm;
        this.requests = requests;
        this.idleNanos = idleNanos;
        this.clock = clock;
    }

    /**
     * Parks the heap once per idle period: call it every second or so. Idle means no collection for {@code idleNanos}
     * (the two collections of a parking do not count) and no request in flight or begun for two seconds — a gateway
     * serving a steady trickle of small requests may not collect for a long time, and must not be stopped then.
     *
     * @return whether it parked the heap now
     */
    boolean tick() {
        long now = clock.getAsLong();
        long collections = jvm.collections();
        if (collections != seenCollections) {
            seenCollections = collections;
            quietSince = now;
            parked = false;
            return false;
        }
        if (parked || now - quietSince < idleNanos || !requests.quietFor(QUIET_REQUESTS_NANOS, now)) {
            return false;
        }
        park();
        seenCollections = jvm.collections();
        parked = true;
        parks++;
        return true;
    }

    int parks() {
        return parks;
    }

    /** Shrinks the heap to its live set, then commits (without touching) the room of one young generation again. */
    void park() {
        shrinkToLiveSet();
        long used = jvm.heapUsed();
        long young = jvm.youngSize().orElse(jvm.maxHeap() / 4);
        long target = Math.min(jvm.maxHeap(), used + young);
        if (target <= used) {
            return;
        }
        int minFree = (int) Math.min(99, Math.ceil(100.0 * (target - used) / target));
        int oldMin = jvm.flag(MIN_FREE);
        int oldMax = jvm.flag(MAX_FREE);
        if (minFree <= oldMin) {
            return;
        }
        // the JVM refuses a minimum above the maximum: raise the maximum first, put it back last
        jvm.settle();
        jvm.setFlag(MAX_FREE, Math.max(oldMax, minFree));
        try {
            jvm.setFlag(MIN_FREE, minFree);
            try {
                jvm.fullCollection();
            } finally {
                jvm.setFlag(MIN_FREE, oldMin);
            }
        } finally {
            jvm.setFlag(MAX_FREE, oldMax);
        }
    }

    /**
     * The first collection of a parking, with the maximum free ratio lowered to the minimum for it: G1 then shrinks
     * the heap to the live set plus the minimum's headroom (down to the JVM's minimum heap size) instead of keeping up
     * to the maximum's 40 % free — regions that stay committed after a burst keep their touched pages resident.
     */
    private void shrinkToLiveSet() {
        int oldMin = jvm.flag(MIN_FREE);
        int oldMax = jvm.flag(MAX_FREE);
        if (oldMin >= oldMax) {
            jvm.fullCollection();
            return;
        }
        jvm.setFlag(MAX_FREE, oldMin);
        try {
            jvm.fullCollection();
        } finally {
            jvm.setFlag(MAX_FREE, oldMax);
        }
    }

    /**
     * Starts the parking on a daemon thread when the JVM runs G1 with writable heap free ratios (otherwise nothing:
     * another collector sizes its heap its own way).
     */
    static Optional<Thread> startIfG1(RequestActivity requests, long idleNanos) {
        Optional<Jvm> jvm = hotSpot();
        if (jvm.isEmpty()) {
            return Optional.empty();
        }
        IdleHeap heap = new IdleHeap(jvm.get(), requests, idleNanos, System::nanoTime);
        Thread t = Thread.ofPlatform().daemon(true).name("qeg-idle-heap").unstarted(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1_000);
                    heap.tick();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    System.getLogger(IdleHeap.class.getName()).log(System.Logger.Level.WARNING,
                            "parking the idle heap failed; not trying again", e);
                    return;
                }
            }
        });
        t.start();
        return Optional.of(t);
    }

    /** The running JVM, if it collects with G1 and lets the heap free ratios be set at run time. */
    static Optional<Jvm> hotSpot() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        if (collectors.stream().noneMatch(c -> c.getName().startsWith("G1 "))) {
            return Optional.empty();
        }
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotSpot == null || !hotSpot.getVMOption(MIN_FREE).isWriteable()
                || !hotSpot.getVMOption(MAX_FREE).isWriteable()) {
            return Optional.empty();
        }
        return Optional.of(new Jvm() {
            @Override
            public long collections() {
                long n = 0;
                for (GarbageCollectorMXBean c : collectors) {
                    n += Math.max(0, c.getCollectionCount());
                }
                return n;
            }

            @Override
            public void fullCollection() {
                System.gc();
            }

            @Override
            public void settle() {
                try {
                    Thread.sleep(SETTLE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public long heapUsed() {
                return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            }

            @Override
            public long maxHeap() {
                return Runtime.getRuntime().maxMemory();
            }

            @Override
            public Optional<Long> youngSize() {
                var option = hotSpot.getVMOption("MaxNewSize");
                return switch (option.getOrigin()) {
                    case VM_CREATION, ENVIRON_VAR, CONFIG_FILE -> Optional.of(Long.parseLong(option.getValue()));
                    default -> Optional.empty(); // the JVM's own choice, not a size someone gave
                };
            }

            @Override
            public int flag(String name) {
                return Integer.parseInt(hotSpot.getVMOption(name).getValue());
            }

            @Override
            public void setFlag(String name, int value) {
                hotSpot.setVMOption(name, Integer.toString(value));
            }
        });
    }
}
