package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.management.VirtualThreadSchedulerMXBean;
import org.junit.jupiter.api.Test;

/**
 * The carrier threads of the gateway's virtual threads: twice the processors unless given, and in effect — checked in
 * a fresh JVM, because the scheduler reads the setting once, when the first virtual thread starts.
 */
class CarrierThreadsTest {

    /** Run in a child JVM: configures for the given processors, starts a virtual thread, prints the parallelism. */
    public static void main(String[] args) throws InterruptedException {
        CarrierThreads.configure(Integer.parseInt(args[0]));
        Thread.ofVirtual().start(() -> { }).join();
        System.out.println(ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class).getParallelism());
    }

    private static String child(String processors, String... jvmOptions) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CarrierThreadsTest.class.getName(),
                processors));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void twiceTheProcessorsCarryTheVirtualThreads() throws Exception {
        assertThat(child("2")).isEqualTo("4");
        assertThat(child("3")).isEqualTo("6");
        assertThat(child("1")).isEqualTo("2");
    }

    @Test
    void anExplicitParallelismWins() throws Exception {
        assertThat(child("2", "-Djdk.virtualThreadScheduler.parallelism=3")).isEqualTo("3");
    }
}
