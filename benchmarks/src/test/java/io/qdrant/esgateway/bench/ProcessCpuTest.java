package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** CPU time of a process from /proc: parsed field by field, and growing when the process works. */
class ProcessCpuTest {
    @Test
    void utimeAndStimeAreCountedAfterTheCommandNameEvenWhenItHoldsSpacesAndParentheses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime ...
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 9 20 0 40 0 123 4096 99";
        assertThat(ProcessCpu.parse(stat, 100)).hasValue(3_000_000_000L);
        assertThat(ProcessCpu.parse(stat, 1000)).hasValue(300_000_000L);
        assertThat(ProcessCpu.parse("garbage", 100)).isEmpty();
    }

    @Test
    void theCpuTimeOfThisProcessGrowsWhileItComputes() {
        long pid = ProcessHandle.current().pid();
        long before = ProcessCpu.nanos(pid).orElseThrow();
        long threadCpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long x = 0;
        // busy until this thread alone has used 100 ms of CPU (10 ticks at 100 Hz)
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadCpu0 < 100_000_000L) {
            for (int i = 0; i < 100_000; i++) {
                x += i ^ (x >>> 3);
            }
        }
        long after = ProcessCpu.nanos(pid).orElseThrow();
        assertThat(x).isNotZero();
        assertThat(after - before).isGreaterThanOrEqualTo(80_000_000L);
        assertThat(ProcessCpu.nanos(Long.MAX_VALUE)).isEmpty();
    }
}
