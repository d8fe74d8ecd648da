package io.qdrant.esgateway.bench;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The gateway child's entry point: {@code ParentWatch PARENT_PID MAIN_CLASS ARGS…} starts a daemon thread that ends
 * this JVM (through its shutdown hooks, so the gateway closes cleanly) once the runner's process is gone — even
 * after a kill -9 of the runner — and then runs {@code MAIN_CLASS.main(ARGS)}. The oracle launchers do the same with
 * {@code -Doracle.parent.pid}; the gateway's own {@code Main} has no such option, and needs none in production.
 */
public final class ParentWatch {
    private ParentWatch() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ParentWatch PARENT_PID MAIN_CLASS [ARGS…]");
            System.exit(2);
        }
        long parent = Long.parseLong(args[0]);
        Thread watch = new Thread(() -> {
            while (ProcessHandle.of(parent).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.err.println("bench: the runner (pid " + parent + ") is gone; stopping");
            System.exit(0);
        }, "bench-parent-watch");
        watch.setDaemon(true);
        watch.start();
        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    }
}
