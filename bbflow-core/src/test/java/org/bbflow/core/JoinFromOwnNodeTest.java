package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Flow#join()}, {@link Flow#join(Duration)}, {@link Flow#close()} and a wait on
 * {@link Flow#completion()} (or a stage that depends on it alone) called from one of the flow's own
 * node threads would wait for that thread itself: the flow could never end.
 */
@Timeout(60)
class JoinFromOwnNodeTest {

    /** Runs a flow whose sink calls {@code call} on the flow at its first item; returns the flow's failure. */
    private static FlowException runCalling(Consumer<Flow> call) throws Exception {
        AtomicReference<Flow> self = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 10), Nodes.sink((Long x) -> {
            assertTrue(started.await(10, TimeUnit.SECONDS));
            call.accept(self.get());
        })));
        self.set(flow);
        started.countDown();
        try {
            flow.join(Duration.ofSeconds(10));
        } catch (TimeoutException e) {
            flow.cancel();
            throw new AssertionError("the flow waited for its own node thread", e);
        } catch (FlowException e) {
            return e;
        }
        throw new AssertionError("the flow ended normally");
    }

    @Test
    void joinFromANodeOfTheFlowFailsTheFlowInsteadOfWaitingForItself() throws Exception {
        FlowException e = runCalling(Flow::join);
        assertInstanceOf(IllegalStateException.class, e.getCause(), String.valueOf(e));
        assertTrue(e.getCause().getMessage().contains("its own"), e.getCause().getMessage());
    }

    @Test
    void joinWithATimeoutFromANodeOfTheFlowFailsTheFlowInsteadOfWaitingForItself() throws Exception {
        FlowException e = runCalling(f -> {
            try {
                f.join(Duration.ofSeconds(30));
            } catch (TimeoutException t) {
                throw new AssertionError(t);
            }
        });
        assertInstanceOf(IllegalStateException.class, e.getCause(), String.valueOf(e));
    }

    @Test
    void closeFromANodeOfTheFlowCancelsItInsteadOfWaitingForItself() throws Exception {
        FlowException e = runCalling(Flow::close);
        assertTrue(e.getCause() instanceof java.util.concurrent.CancellationException
                || e.getCause() instanceof IllegalStateException, String.valueOf(e));
    }

    @Test
    void waitingOnTheCompletionFromANodeOfTheFlowFailsTheFlowInsteadOfWaitingForItself() throws Exception {
        java.util.List<Consumer<Flow>> waits = java.util.List.of(
                f -> f.completion().join(),
                f -> {
                    try {
                        f.completion().get();
                    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                        throw new AssertionError(e);
                    }
                },
                f -> {
                    try {
                        f.completion().get(30, TimeUnit.SECONDS);
                    } catch (InterruptedException | java.util.concurrent.ExecutionException | TimeoutException e) {
                        throw new AssertionError(e);
                    }
                },
                f -> f.completion().thenApply(RunStats::toString).exceptionally(t -> "failed").join(),
                f -> f.completion().thenCombine(java.util.concurrent.CompletableFuture.completedFuture(1), (s, one) -> s)
                        .toCompletableFuture().join());
        for (int i = 0; i < waits.size(); i++) {
            FlowException e = runCalling(waits.get(i));
            assertInstanceOf(IllegalStateException.class, e.getCause(), "wait " + i + ": " + e);
            assertTrue(e.getCause().getMessage().contains("its own"), e.getCause().getMessage());
        }
    }

    /**
     * A stage that can complete without the flow (the "either" forms, {@code orTimeout},
     * {@code completeOnTimeout}) is not refused: a node may wait on it.
     */
    @Test
    void aStageThatCanCompleteWithoutTheFlowIsNotRefused() throws Exception {
        AtomicReference<Object> seen = new AtomicReference<>();
        AtomicReference<Flow> self = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Flow flow = Flow.start(Pipeline.of(Nodes.range(1, 1), Nodes.sink((Long x) -> {
            assertTrue(started.await(10, TimeUnit.SECONDS));
            Flow f = self.get();
            java.util.concurrent.CompletableFuture<RunStats> later = new java.util.concurrent.CompletableFuture<RunStats>()
                    .completeOnTimeout(null, 10, TimeUnit.MILLISECONDS); // not done when the node waits
            Object either = f.completion().applyToEither(later, s -> "either").join();
            Object timedOut = f.completion().completeOnTimeout(null, 10, TimeUnit.MILLISECONDS)
                    .thenApply(s -> "timed out").join();
            seen.set(either + ", " + timedOut);
        })));
        self.set(flow);
        started.countDown();
        flow.join(Duration.ofSeconds(30));
        assertTrue("either, timed out".equals(seen.get()), String.valueOf(seen.get()));
    }
}
