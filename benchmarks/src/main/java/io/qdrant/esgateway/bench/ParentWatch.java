package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.oracle.launcher.OracleNode;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The gateway child's entry point: {@code ParentWatch PARENT_PID MAIN_CLASS ARGS…} starts a daemon thread that ends
 * this JVM (through its shutdown hooks, so the gateway closes cleanly) once the runner's process is gone — even
 * after a kill -9 of the runner ({@link OracleNode#exitWhenGone}) — and then runs {@code MAIN_CLASS.main(ARGS)}. The oracle launchers do the same with
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
        OracleNode.exitWhenGone(parent, "bench-parent-watch", "bench: the runner (pid " + parent + ") is gone;"
                + " stopping");
        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    }
}
