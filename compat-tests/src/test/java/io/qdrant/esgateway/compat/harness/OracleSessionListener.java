package io.qdrant.esgateway.compat.harness;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Stops the oracle engines and the gateway when the JUnit launcher session of this test JVM ends. */
public final class OracleSessionListener implements LauncherSessionListener {
    @Override
    public void launcherSessionClosed(LauncherSession session) {
        Oracles.stopAll();
    }
}
