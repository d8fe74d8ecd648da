package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CpuPinningTest {
    @Test
    void theEnginesGetTheListedCpusAndTheRunnerTheOthers() {
        CpuPinning p = CpuPinning.parse("1", 2);
        assertThat(p.engine()).containsExactly(1);
        assertThat(p.runner()).containsExactly(0);
        assertThat(p.enginePrefix()).containsExactly("taskset", "-c", "1");
        assertThat(p.describe()).isEqualTo("engines on CPU 1, runner (clients, Qdrant stand-in) on CPU 0");

        CpuPinning ranges = CpuPinning.parse("2-3, 6", 8);
        assertThat(ranges.engine()).containsExactly(2, 3, 6);
        assertThat(ranges.runner()).containsExactly(0, 1, 4, 5, 7);
        assertThat(ranges.enginePrefix()).containsExactly("taskset", "-c", "2,3,6");
    }

    @Test
    void withoutTheOptionNothingIsPinned() {
        assertThat(BenchOptions.parse(new String[0]).pinning()).isEqualTo(CpuPinning.NONE);
        assertThat(CpuPinning.NONE.pinned()).isFalse();
        assertThat(CpuPinning.NONE.enginePrefix()).isEmpty();
        assertThat(CpuPinning.NONE.describe()).contains("not pinned");
    }

    @Test
    void aListThatIsMalformedOrLeavesTheRunnerNothingIsRefused() {
        assertThatThrownBy(() -> CpuPinning.parse("0-1", 2)).hasMessageContaining("leaves no CPU to the runner");
        assertThatThrownBy(() -> CpuPinning.parse("2", 2)).hasMessageContaining("CPUs 0 to 1");
        assertThatThrownBy(() -> CpuPinning.parse("3-1", 4)).hasMessageContaining("CPUs 0 to 3");
        assertThatThrownBy(() -> CpuPinning.parse("one", 2)).hasMessageContaining("--engine-cpus expects");
        assertThatThrownBy(() -> CpuPinning.parse("1,", 2)).hasMessageContaining("--engine-cpus expects");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--engine-cpus", "x"}))
                .hasMessageContaining("--engine-cpus");
    }

    /** The prefix really confines a process: the kernel's view of a child started with it. */
    @Test
    void aProcessStartedWithTheEnginePrefixRunsOnlyOnThoseCpus() throws Exception {
        List<String> command = new java.util.ArrayList<>(CpuPinning.parse("0", 2).enginePrefix());
        command.addAll(List.of("grep", "Cpus_allowed_list", "/proc/self/status"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.trim()).matches("Cpus_allowed_list:\\s+0");
    }

    /** What apply does to the runner, done to a child: every thread moved to the runner's CPUs. */
    @Test
    void moveConfinesEveryThreadOfARunningProcess() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            CpuPinning.move(sleeper.pid(), new TreeSet<>(List.of(0)));
            String status = Files.readString(Path.of("/proc", Long.toString(sleeper.pid()), "status"));
            assertThat(status).containsPattern("Cpus_allowed_list:\\s+0\\n");
            assertThat(CpuPinning.allowed(sleeper.pid())).containsExactly(0);
        } finally {
            sleeper.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        assertThatThrownBy(() -> CpuPinning.move(sleeper.pid(), new TreeSet<>(List.of(0))))
                .hasMessageContaining("failed").hasMessageContaining("[]");
        assertThat(CpuPinning.allowed(ProcessHandle.current().pid())).isNotEmpty();
    }
}
