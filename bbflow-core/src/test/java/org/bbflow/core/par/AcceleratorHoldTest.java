package org.bbflow.core.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bbflow.core.Channel;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An accelerator holds its worker nodes as a flow holds its nodes: a node given to a running
 * accelerator's worker factory and placed in a running flow, or in a second accelerator, is refused
 * at start (it ran on two threads at once: the flow saw only the accelerator's wrappers), and is
 * free again once the first user has ended, whether it closed, failed or was cancelled.
 */
@Timeout(60)
class AcceleratorHoldTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /**
     * A node named "held" that doubles its item, failing on {@code failOn} once {@code failWhen} is
     * released (at once unless a test sets it).
     */
    static final class Held implements Node<Long, Long> {
        volatile long failOn = -1;
        volatile CountDownLatch failWhen = new CountDownLatch(0);

        @Override
        public void onItem(Long x, Outbox<Long> out) {
            if (x == failOn) {
                awaitAtMost30s(failWhen);
                throw new IllegalStateException("planted");
            }
            out.send(x * 2);
        }

        @Override
        public String name() {
            return "held";
        }
    }

    /** Waits on a node's thread for the latch, at most 30 s; an interrupt ends the wait (and is kept). */
    private static void awaitAtMost30s(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the latch was not released within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Long> runFlow(Node<Long, Long> node) throws TimeoutException {
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Flow.start(Pipeline.of(Nodes.range(1, 3), node, Nodes.<Long>sink(out::add))).join(DEADLINE);
        return out;
    }

    private static void assertHeld(IllegalStateException e) {
        assertTrue(e.getMessage().contains("'held'") && e.getMessage().contains("already running in another flow"),
                e.getMessage());
    }

    private static Accelerator<Long, Long> accelerator(Node<Long, Long> node, String name) {
        return Accelerator.<Long, Long>builder(1, () -> node).named(name).start();
    }

    private static void roundTrip(Accelerator<Long, Long> acc) {
        acc.offload(5L);
        acc.endBurst();
        assertEquals(10L, acc.takeResult());
        assertNull(acc.takeResult());
    }

    @Test
    void aFlowIsRefusedANodeARunningAcceleratorHoldsUntilItIsClosed() throws Exception {
        Held node = new Held();
        Accelerator<Long, Long> acc = accelerator(node, "hold-acc-flow");
        try {
            roundTrip(acc);
            assertHeld(assertThrows(IllegalStateException.class, () -> runFlow(node)));
            roundTrip(acc); // the refused flow left the accelerator as it was
        } finally {
            acc.close();
        }
        assertEquals(List.of(2L, 4L, 6L), runFlow(node));
    }

    @Test
    void anAcceleratorIsRefusedANodeARunningFlowHoldsUntilTheFlowEnds() throws Exception {
        Held node = new Held();
        Channel<Long> in = Channel.spsc(16);
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Flow flow = Flow.start(Pipeline.of(Nodes.fromChannel(in), node, Nodes.<Long>sink(out::add)));
        assertHeld(assertThrows(IllegalStateException.class, () -> accelerator(node, "hold-flow-acc")));
        assertTrue(ParallelForTest.liveThreads("hold-flow-acc").isEmpty());
        in.put(1L);
        in.close();
        flow.join(DEADLINE);
        assertEquals(List.of(2L), out);
        try (Accelerator<Long, Long> acc = accelerator(node, "hold-flow-acc-2")) {
            roundTrip(acc);
        }
    }

    @Test
    void aSecondAcceleratorIsRefusedANodeTheFirstHolds() {
        Held node = new Held();
        try (Accelerator<Long, Long> first = accelerator(node, "hold-first")) {
            assertHeld(assertThrows(IllegalStateException.class, () -> accelerator(node, "hold-second")));
            roundTrip(first);
        }
        try (Accelerator<Long, Long> second = accelerator(node, "hold-second-2")) {
            roundTrip(second);
        }
    }

    @Test
    void theNodeIsFreeAgainAfterTheAcceleratorFailed() throws Exception {
        Held node = new Held();
        node.failOn = 7;
        // The worker fails only once the burst's end has been sent: failing earlier, it made endBurst
        // throw the farm's failure (as documented) and the test fail on its own race.
        CountDownLatch burstEnded = new CountDownLatch(1);
        node.failWhen = burstEnded;
        Accelerator<Long, Long> acc = accelerator(node, "hold-failed");
        acc.offload(7L);
        acc.endBurst();
        burstEnded.countDown();
        assertThrows(FlowException.class, acc::takeResult);
        assertThrows(FlowException.class, acc::close);
        node.failOn = -1;
        assertEquals(List.of(2L, 4L, 6L), runFlow(node));
    }

    @Test
    void theNodeIsFreeAgainAfterTheAcceleratorWasCancelled() throws Exception {
        Held node = new Held();
        Accelerator<Long, Long> acc = accelerator(node, "hold-cancelled");
        roundTrip(acc);
        acc.flow().cancel();
        assertThrows(FlowException.class, acc::close);
        assertEquals(List.of(2L, 4L, 6L), runFlow(node));
        try (Accelerator<Long, Long> again = accelerator(node, "hold-cancelled-2")) {
            roundTrip(again);
        }
    }

    /** The node may be held by a wrapper inside a comb, and the comb is held with it. */
    @Test
    void aNodeFusedIntoAnAcceleratorsWorkerIsHeldToo() throws Exception {
        Held node = new Held();
        Node<Long, Long> plusOne = Nodes.map((Long x) -> x + 1);
        try (Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(1, () -> plusOne.andThen(node))
                .named("hold-comb").start()) {
            assertHeld(assertThrows(IllegalStateException.class, () -> runFlow(node)));
        }
        assertEquals(List.of(2L, 4L, 6L), runFlow(node));
    }
}
