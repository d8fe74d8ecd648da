package io.qdrant.esgateway.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Which CPUs the engines run on and which the runner keeps ({@code --engine-cpus}). Without it every process shares
 * all of them, and at saturation an engine's latency also measures how the scheduler divides the cores between it,
 * the runner's clients and the canned Qdrant responder, which shifts with the number of JVMs an engine has. With it,
 * each engine's own processes (the gateway or its replicas and their redis-server, Elasticsearch, OpenSearch) start
 * under {@code taskset -c} on {@link #engine()} and the runner moves itself, every thread, to {@link #runner()}, the
 * rest: the clients, the canned responder in its JVM and the fake Qdrant process it starts (both stand in for a
 * Qdrant on its own machines) never take an engine's core.
 *
 * @param engine the CPUs of the engines' processes (empty: no pinning)
 * @param runner the CPUs of the runner and what it starts for the backend (empty: no pinning)
 */
record CpuPinning(SortedSet<Integer> engine, SortedSet<Integer> runner) {
    /** No pinning: every process on every CPU, the scheduler's choice. */
    static final CpuPinning NONE = new CpuPinning(new TreeSet<>(), new TreeSet<>());

    private static volatile CpuPinning current = NONE;

    CpuPinning {
        engine = Collections.unmodifiableSortedSet(new TreeSet<>(engine));
        runner = Collections.unmodifiableSortedSet(new TreeSet<>(runner));
    }

    /**
     * Parses {@code --engine-cpus}: CPU numbers and ranges ({@code 1}, {@code 2-3}, {@code 1,3}) below {@code cpus};
     * the runner gets the others, so at least one must be left. A malformed or impossible list is an
     * {@link IllegalArgumentException} naming it.
     */
    static CpuPinning parse(String list, int cpus) {
        SortedSet<Integer> engine = new TreeSet<>();
        for (String part : list.split(",", -1)) {
            String p = part.trim();
            if (!p.matches("\\d{1,4}(-\\d{1,4})?")) {
                throw new IllegalArgumentException("--engine-cpus expects CPU numbers and ranges such as 1 or 2-3,5, "
                        + "got [" + list + "]");
            }
            int[] span = span(p);
            if (span[0] > span[1] || span[1] >= cpus) {
                throw new IllegalArgumentException("--engine-cpus [" + list + "]: this machine has CPUs 0 to "
                        + (cpus - 1));
            }
            IntStream.rangeClosed(span[0], span[1]).forEach(engine::add);
        }
        SortedSet<Integer> runner = new TreeSet<>();
        IntStream.range(0, cpus).filter(c -> !engine.contains(c)).forEach(runner::add);
        if (runner.isEmpty()) {
            throw new IllegalArgumentException("--engine-cpus [" + list + "] leaves no CPU to the runner (its clients "
                    + "and the Qdrant stand-in); this machine has CPUs 0 to " + (cpus - 1));
        }
        return new CpuPinning(engine, runner);
    }

    boolean pinned() {
        return !engine.isEmpty();
    }

    /** What an engine's process command starts with: {@code taskset -c LIST} when pinned, else nothing. */
    List<String> enginePrefix() {
        return pinned() ? List.of("taskset", "-c", list(engine)) : List.of();
    }

    /** For the report: each side's CPUs, or that nothing was pinned. */
    String describe() {
        return pinned() ? "engines on CPU " + list(engine) + ", runner (clients, Qdrant stand-in) on CPU " + list(runner)
                : "not pinned: every process on every CPU";
    }

    static String list(SortedSet<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /**
     * Makes this the run's pinning: moves every thread of this JVM to {@link #runner()} (threads started later inherit
     * it, and so do the processes it starts without {@link #enginePrefix()}). Fails, naming the command, when
     * {@code taskset} is missing or refuses.
     */
    void apply() {
        if (pinned()) {
            move(ProcessHandle.current().pid(), runner);
        }
        current = this;
    }

    /**
     * Moves every thread of process {@code pid} to {@code cpus} ({@code taskset -a -p -c}), then checks the kernel's
     * view ({@code /proc/PID/status}): taskset alone reports success for a process that is gone.
     */
    static void move(long pid, SortedSet<Integer> cpus) {
        List<String> command = List.of("taskset", "-a", "-p", "-c", list(cpus), Long.toString(pid));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("--engine-cpus: `" + String.join(" ", command) + "` failed: " + output);
            }
            SortedSet<Integer> allowed = allowed(pid);
            if (!allowed.equals(cpus)) {
                throw new IllegalStateException("--engine-cpus: `" + String.join(" ", command) + "` failed: process "
                        + pid + " may run on CPUs " + allowed + " afterwards");
            }
        } catch (IOException e) {
            throw new IllegalStateException("--engine-cpus needs taskset (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The CPUs the kernel lets process {@code pid} run on; empty when it is gone. */
    static SortedSet<Integer> allowed(long pid) {
        SortedSet<Integer> cpus = new TreeSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                        int[] span = span(part);
                        IntStream.rangeClosed(span[0], span[1]).forEach(cpus::add);
                    }
                }
            }
        } catch (IOException gone) {
            // no such process: no CPUs
        }
        return cpus;
    }

    /** A CPU list's element, {@code N} or {@code N-M}, as its first and last CPU. */
    private static int[] span(String part) {
        int dash = part.indexOf('-');
        int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
        return new int[] {from, dash < 0 ? from : Integer.parseInt(part.substring(dash + 1))};
    }

    /** The run's pinning ({@link #NONE} until {@link #apply()}). */
    static CpuPinning current() {
        return current;
    }
}
