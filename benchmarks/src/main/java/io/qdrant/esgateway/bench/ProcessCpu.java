package io.qdrant.esgateway.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The CPU time a process has used (user + system, all its threads), from {@code /proc/<pid>/stat}: what a request
 * costs an engine independent of how long it waited for a CPU on a busy machine. Resolution: one clock tick (10 ms at
 * the usual 100 Hz), so it is read over a whole cell, never per request.
 */
public final class ProcessCpu {
    private static final long CLOCK_TICKS_PER_SECOND = clockTicks();

    private ProcessCpu() {
    }

    /** The process's CPU time in ns, or empty when it cannot be read (no such process, not Linux). */
    public static OptionalLong nanos(long pid) {
        try {
            return parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII),
                    CLOCK_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * utime + stime of a {@code /proc/<pid>/stat} line in ns. The command name (field 2) is in parentheses and may
     * hold spaces and parentheses, so fields are counted after the last ')': state is field 3, utime 14, stime 15.
     */
    static OptionalLong parse(String stat, long ticksPerSecond) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return OptionalLong.empty();
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        if (f.length < 13) {
            return OptionalLong.empty();
        }
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return OptionalLong.of(ticks * (1_000_000_000L / ticksPerSecond));
    }

    /** {@code getconf CLK_TCK}; 100 (what Linux reports to user space on x86 and arm64) when it cannot be asked. */
    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            p.waitFor();
            long ticks = Long.parseLong(out);
            return ticks > 0 && 1_000_000_000L % ticks == 0 ? ticks : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
