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
     * rules: 3 s a build). In TCK 1.0.4 this is in fact the whole wait: {@code Receptacle.expectError}
     * sets the time left to {@code -now - then} after its first look (a {@code =-} for {@code -=},
     * fixed upstream after 1.0.4: reactive-streams-jvm pull request 544), so it fails after one poll.
     * At 10 ms a rule 3.9 check failed now and then on two busy cores ("Expected
     * onError(java.lang.IllegalArgumentException) within 1000 ms" after 32 ms: the error comes once the
     * cancelled flow's threads have ended, through the flow's future). 250 ms left room for that on a
     * quiet machine, but it was the one expected signal given less than {@link #TIMEOUT_MILLIS}, and a
     * loaded CI host can take longer to end a flow's threads (a review of the suite's timing,
     * 2026-11-28): so the same second as every other expected signal, at ~2 s a build (three rules).
     */
    static final long POLL_MILLIS = TIMEOUT_MILLIS;

    private TckTiming() {
    }
}
