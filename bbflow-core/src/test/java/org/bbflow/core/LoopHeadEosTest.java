package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a loop's head sends from its onEos. The head runs onEos once the loop has drained, and no head
 * reads again after that: an item it sends into the loop may leave the loop, but one sent back must
 * fail the flow with an error that says so, on every schedule. Before, such an item was lost without a
 * word (the flow ended normally), or, with several heads (an all-to-all), the flow hung.
 */
@Timeout(60)
class LoopHeadEosTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** A head that passes items from outside on, counts the ones fed back, and sends 1000 from onEos. */
    private static Node<Long, Long> head(AtomicLong fedBack, long pauseMillis) {
        return new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                if (c.fromFeedback()) {
                    fedBack.incrementAndGet();
                } else {
                    o.send(x);
                }
            }

            @Override
            public void onEos(Outbox<Long> o) throws Exception {
                o.send(1000L);
                // widens the window in which a worker sends the item back before the head has ended
                // (where it was lost); the outcome must not depend on it
                Thread.sleep(pauseMillis);
            }
        };
    }

    private static void assertRefusedFeedBack(FlowException e) {
        String m = e.getCause().getMessage();
        assertTrue(m.contains("after the feedback loop ended") && m.contains("a head of the loop sent from its onEos"),
                m);
    }

    @Test
    void anItemAFarmEmitterSendsFromOnEosAndAWorkerSendsBackFailsTheFlow() {
        for (long pause : new long[] {0, 20}) {
            AtomicLong fedBack = new AtomicLong();
            Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> Nodes.<Long, Long>flatMap((x, o) -> o.send(x)))
                    .emitter(head(fedBack, pause)).feedback().withoutCollector();
            FlowException e = assertThrows(FlowException.class,
                    () -> Runs.run(Pipeline.of(Nodes.range(1, 10), farm), FlowOptions.defaults(), DEADLINE));
            assertTrue(e.nodePath().contains("worker-"), e.nodePath());
            assertRefusedFeedBack(e);
            assertEquals(10, fedBack.get());
        }
    }

    @Test
    void anItemAnAllToAllLeftMemberSendsFromOnEosAndARightMemberSendsBackFailsTheFlowInsteadOfHanging() {
        for (long pause : new long[] {0, 20}) {
            AtomicLong fedBack = new AtomicLong();
            AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(2, () -> head(fedBack, pause), 2,
                    () -> Nodes.<Long, Long>flatMap((x, o) -> o.send(x))).feedback();
            FlowException e = assertThrows(FlowException.class,
                    () -> Runs.run(Pipeline.of(Nodes.range(1, 10), a2a), FlowOptions.defaults(), DEADLINE));
            assertRefusedFeedBack(e);
        }
    }

    @Test
    void aOneStageLoopWhoseHeadSendsFromOnEosFailsTheFlow() {
        // the head is also the loop's last stage: its onEos's send() goes back to itself
        AtomicLong fedBack = new AtomicLong();
        Pipeline<Long, Long> loop = Pipeline.<Long, Long>of(head(fedBack, 0)).feedback();
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(Nodes.range(1, 10), loop), FlowOptions.defaults(), DEADLINE));
        assertRefusedFeedBack(e);
    }

    @Test
    void anItemAHeadSendsFromOnEosMayLeaveTheLoop() {
        // s0's onEos sends 1000 into the loop; s1 sends it forward (sendTo(1)), as every item >= 100
        Runs.Collector<Long> out = new Runs.Collector<>();
        AtomicLong fedBack = new AtomicLong();
        Node<Long, Long> s1 = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x >= 100) {
                o.sendTo(1, x);
            } else {
                o.send(x + 100);
            }
        });
        Runs.run(Pipeline.of(Nodes.range(1, 3), Pipeline.of(head(fedBack, 20), s1).feedback(), out.sink()),
                FlowOptions.defaults(), DEADLINE);
        assertEquals(3, fedBack.get());
        assertEquals(List.of(1000L), out.get());
    }

    /**
     * A source inside a loop that does not head it (a farm's worker, an all-to-all's left member)
     * generates whenever it likes: the loop could end before it sent, and its items then came back to
     * no head (lost, or a failure blaming the node that sent them back, depending on timing). Refused at
     * start, naming the source.
     */
    @Test
    void aSourceInsideALoopThatDoesNotHeadItIsRefused() {
        Block<Long, Long> farm = Farm.<Long, Long>of(List.of(Nodes.<Long>identity(), Nodes.range(1, 5)));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 3), Pipeline.of(Nodes.<Long>identity(), farm, Nodes.<Long>identity()).feedback())));
        assertTrue(e.getMessage().contains("feedback loops") && e.getMessage().contains("worker-1"), e.getMessage());

        AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(List.of(Nodes.<Long>identity(), Nodes.range(1, 5)),
                List.of(Nodes.<Long>identity()));
        e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 3), Pipeline.of(Nodes.<Long>identity(), a2a).feedback())));
        assertTrue(e.getMessage().contains("feedback loops") && e.getMessage().contains("left-1"), e.getMessage());
    }
}
