package io.qdrant.esgateway.compat.harness;

/** The harness's lines in the test log (Surefire's console output): engine start/stop, timings, memory. */
public final class HarnessLog {
    private HarnessLog() {
    }

    public static void info(String line) {
        System.out.println("[compat] " + line);
        System.out.flush();
    }
}
