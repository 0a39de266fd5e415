package org.bbflow.core.reactive;

/**
 * How long the TCK waits. A signal it expects comes within milliseconds, but a flow starts threads
 * and CI's two cores are shared, so the wait for one is generous; the wait that proves the absence of
 * a signal is what every such rule costs, so it is short.
 */
final class TckTiming {
    static final long TIMEOUT_MILLIS = 1_000;
    static final long NO_SIGNALS_MILLIS = 50;
    static final long GC_TIMEOUT_MILLIS = 1_000;
    /**
     * How often the TCK looks for an expected error within {@link #TIMEOUT_MILLIS}. Left unset it is
     * the timeout itself, so each rule 3.9 check slept a whole second before looking (three such
     * rules: 3 s a build); the deadline is the same.
     */
    static final long POLL_MILLIS = 10;

    private TckTiming() {
    }
}
