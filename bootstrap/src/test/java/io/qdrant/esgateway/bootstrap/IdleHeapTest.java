package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The idle heap's parking: once per idle period, shrink (a full collection with the maximum free ratio lowered to the
 * minimum), then grow back to
 * live set + young generation (a second one with the minimum free ratio raised), the ratios always valid and put
 * back. The last test runs it in a real G1 JVM: the heap is committed again but not resident.
 */
class IdleHeapTest {
    private static final long MB = 1L << 20;
    private static final long IDLE = TimeUnit.SECONDS.toNanos(7);

    /** A JVM that records what is done to it and checks MinHeapFreeRatio <= MaxHeapFreeRatio at every step. */
    static final class FakeJvm implements IdleHeap.Jvm {
        final List<String> log = new ArrayList<>();
        long collections;
        int min = 10;
        int max = 40;
        long used = 12 * MB;
        Optional<Long> young = Optional.of(128 * MB);
        RuntimeException failOnSecondCollection;
        RuntimeException failOnFirstCollection;
        private int full;

        @Override
        public long collections() {
            return collections;
        }

        @Override
        public void fullCollection() {
            collections++;
            full++;
            log.add("gc min=" + min + " max=" + max);
            if (full % 2 == 0 && failOnSecondCollection != null) {
                throw failOnSecondCollection;
            }
            if (full % 2 == 1 && failOnFirstCollection != null) {
                throw failOnFirstCollection;
            }
        }

        @Override
        public void settle() {
            log.add("settle");
        }

        @Override
        public long heapUsed() {
            return used;
        }

        @Override
        public long maxHeap() {
            return 512 * MB;
        }

        @Override
        public Optional<Long> youngSize() {
            return young;
        }

        @Override
        public int flag(String name) {
            return name.equals(IdleHeap.MIN_FREE) ? min : max;
        }

        @Override
        public void setFlag(String name, int value) {
            if (name.equals(IdleHeap.MIN_FREE)) {
                min = value;
            } else {
                max = value;
            }
            assertThat(min).as("the JVM refuses a minimum free ratio above the maximum").isLessThanOrEqualTo(max);
        }
    }

    @Test
    void parkingShrinksThenGrowsBackToTheLiveSetPlusOneYoungGenerationAndPutsTheRatiosBack() {
        FakeJvm jvm = new FakeJvm();
        new IdleHeap(jvm, new RequestActivity(() -> 0), IDLE, () -> 0).park();
        // target 12 + 128 = 140 MB with 12 used: 128/140 free = 91.4 % -> 92
        // the first collection shrinks with the maximum free ratio lowered to the minimum (live set + 10 %)
        assertThat(jvm.log).containsExactly("gc min=10 max=10", "settle", "gc min=92 max=92");
        assertThat(jvm.min).isEqualTo(10);
        assertThat(jvm.max).isEqualTo(40);
    }

    @Test
    void withoutAGivenYoungSizeAQuarterOfTheMaximumHeapIsKeptFree() {
        FakeJvm jvm = new FakeJvm();
        jvm.young = Optional.empty();
        new IdleHeap(jvm, new RequestActivity(() -> 0), IDLE, () -> 0).park();
        // 12 + 128 (512 / 4) again
        assertThat(jvm.log).last().isEqualTo("gc min=92 max=92");
    }

    @Test
    void theRatiosArePutBackWhenTheSecondCollectionFails() {
        FakeJvm jvm = new FakeJvm();
        jvm.failOnSecondCollection = new IllegalStateException("boom");
        assertThatThrownBy(() -> new IdleHeap(jvm, new RequestActivity(() -> 0), IDLE, () -> 0).park()).hasMessage("boom");
        assertThat(jvm.min).isEqualTo(10);
        assertThat(jvm.max).isEqualTo(40);
    }

    @Test
    void theMaximumIsPutBackWhenTheShrinkingCollectionFails() {
        FakeJvm jvm = new FakeJvm();
        jvm.failOnFirstCollection = new IllegalStateException("boom");
        assertThatThrownBy(() -> new IdleHeap(jvm, new RequestActivity(() -> 0), IDLE, () -> 0).park()).hasMessage("boom");
        assertThat(jvm.log).containsExactly("gc min=10 max=10");
        assertThat(jvm.min).isEqualTo(10);
        assertThat(jvm.max).isEqualTo(40);
    }

    @Test
    void ratiosWithNoRoomBetweenThemShrinkAsTheyAre() {
        FakeJvm jvm = new FakeJvm();
        jvm.min = 40;
        new IdleHeap(jvm, new RequestActivity(() -> 0), IDLE, () -> 0).park();
        assertThat(jvm.log).first().isEqualTo("gc min=40 max=40");
        assertThat(jvm.min).isEqualTo(40);
        assertThat(jvm.max).isEqualTo(40);
    }

    @Test
    void itParksOncePerIdlePeriodAndNotWhileCollectionsRun() {
        FakeJvm jvm = new FakeJvm();
        long[] now = {0};
        IdleHeap heap = new IdleHeap(jvm, new RequestActivity(() -> now[0]), IDLE, () -> now[0]);
        for (int s = 0; s < 20; s++) { // busy: a collection every second
            jvm.collections++;
            now[0] = TimeUnit.SECONDS.toNanos(s);
            assertThat(heap.tick()).isFalse();
        }
        now[0] += TimeUnit.SECONDS.toNanos(6);
        assertThat(heap.tick()).as("quiet for 6 s: not yet").isFalse();
        now[0] += TimeUnit.SECONDS.toNanos(1);
        assertThat(heap.tick()).as("quiet for 7 s: park").isTrue();
        for (int s = 0; s < 30; s++) {
            now[0] += TimeUnit.SECONDS.toNanos(1);
            assertThat(heap.tick()).as("its own two collections are not activity").isFalse();
        }
        assertThat(heap.parks()).isEqualTo(1);

        jvm.collections++; // the next burst
        now[0] += TimeUnit.SECONDS.toNanos(1);
        assertThat(heap.tick()).isFalse();
        now[0] += IDLE;
        assertThat(heap.tick()).as("quiet again: park again").isTrue();
        assertThat(heap.parks()).isEqualTo(2);
    }

    @Test
    void aGatewayServingRequestsIsNotParkedEvenWithoutCollections() {
        FakeJvm jvm = new FakeJvm();
        long[] now = {0};
        RequestActivity requests = new RequestActivity(() -> now[0]);
        IdleHeap heap = new IdleHeap(jvm, requests, IDLE, () -> now[0]);
        assertThat(heap.tick()).isFalse();
        requests.begin(); // a long request, no collection
        now[0] += 3 * IDLE;
        assertThat(heap.tick()).as("a request in flight").isFalse();
        requests.end();
        now[0] += IdleHeap.QUIET_REQUESTS_NANOS - 1;
        assertThat(heap.tick()).as("a request ended under two seconds ago").isFalse();
        for (int i = 0; i < 10; i++) { // a trickle of small requests, one a second
            requests.begin();
            requests.end();
            now[0] += TimeUnit.SECONDS.toNanos(1);
            assertThat(heap.tick()).isFalse();
        }
        now[0] += IdleHeap.QUIET_REQUESTS_NANOS;
        assertThat(heap.tick()).as("quiet: no collection for long, no request for two seconds").isTrue();
        assertThat(jvm.log).hasSize(3);
    }

    @Test
    void aParkedHeapIsCommittedAgainButNotResident() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-XX:+UseG1GC", "-Xms32m", "-XX:MinHeapSize=8m", "-Xmx512m", "-Xmn128m",
                "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=40", "-XX:G1PeriodicGCInterval=0",
                "-cp", System.getProperty("java.class.path"), ParkProbe.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // "committed <MB> rss-growth <MB> ..." (growth: parked RSS against the RSS before the burst)
        String[] f = out.lines().filter(l -> l.startsWith("committed ")).findFirst().orElseThrow().split(" ");
        long committed = Long.parseLong(f[1]);
        long rssGrowth = Long.parseLong(f[3]);
        assertThat(committed).as(out).isGreaterThanOrEqualTo(128);
        // the live set (40 MB) stays; with the JVM's 40 % maximum free ratio in the shrinking collection the heap
        // kept ~67 MB of touched regions (growth 70-73 MB), shrunk to live + 10 % it is 48-49 MB
        assertThat(rssGrowth).as("the burst's pages are given back down to the live set, and growing back does not"
                + " make the heap resident: %s", out).isLessThan(ParkProbe.LIVE_MB + 20);
    }

    /** The child JVM of the test above: touch a burst's worth of heap, park, report committed heap and RSS. */
    public static final class ParkProbe {
        static final int LIVE_MB = 40;

        public static void main(String[] args) throws Exception {
            long rssStart = rssMb();
            List<byte[]> live = new ArrayList<>();
            for (int i = 0; i < LIVE_MB * 10; i++) { // a live set that stays through the parking
                byte[] b = new byte[100_000];
                b[i % b.length] = 1;
                live.add(b);
            }
            List<byte[]> keep = new ArrayList<>();
            for (int i = 0; i < 6_000; i++) { // ~600 MB allocated, up to ~150 MB of it kept across collections
                byte[] b = new byte[100_000];
                b[i % b.length] = 1;
                if (i % 4 == 0) {
                    keep.add(b);
                }
                if (keep.size() > 1_500) {
                    keep.clear();
                }
            }
            keep.clear();
            long committedBurst = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
                    .getCommitted() / MB;
            long rssBurst = rssMb();
            IdleHeap.Jvm jvm = IdleHeap.hotSpot().orElseThrow(() -> new IllegalStateException("not G1"));
            new IdleHeap(jvm, new RequestActivity(System::nanoTime), 0, System::nanoTime).park();
            Thread.sleep(500);
            long rssParked = rssMb();
            long committed = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
                    .getCommitted() / MB;
            System.out.println("committed " + committed + " rss-growth " + (rssParked - rssStart) + " live " + live.size()
                    / 10 + " MB; burst: committed "
                    + committedBurst + " rss " + rssBurst + "; start rss " + rssStart + ", parked rss " + rssParked);
        }

        private static long rssMb() throws Exception {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
            throw new IllegalStateException("no VmRSS");
        }
    }
}
