package org.bbflow.bench.support;

import org.bbflow.core.FlowOptions;
import org.bbflow.core.WaitStrategy;

/** Maps the {@code strategy} benchmark parameter to BBFlow wait strategies. */
public final class Strategies {
    private Strategies() {
    }

    /** {@code busyspin}, {@code backoff} (the default) or {@code blocking}. */
    public static WaitStrategy of(String name) {
        switch (name) {
            case "busyspin": return WaitStrategy.busySpin();
            case "backoff": return WaitStrategy.backoff();
            case "blocking": return WaitStrategy.blocking();
            default: throw new IllegalArgumentException("unknown wait strategy '" + name + "'");
        }
    }

    /** Flow options with the named strategy and otherwise the defaults. */
    public static FlowOptions options(String name) {
        return FlowOptions.defaults().withWaitStrategy(of(name));
    }
}
