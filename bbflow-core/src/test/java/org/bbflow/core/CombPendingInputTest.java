package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node fused after another ({@code a.andThen(b)}) inside a feedback loop: an item waiting on the
 * comb's input reaches the first node, which may drop it, so the second node must not keep items
 * on the strength of it ({@link NodeContext#hasPendingInput()}), or the loop ends with them kept.
 * Each shape lets every outside item reach the worker before its first is handled (a latch, no
 * sleep), so that items wait on its input deterministically, and then drops the last hundred.
 */
@Timeout(120)
class CombPendingInputTest {
    private static final long N = 200;
    private static final long KEPT = 100;

    /** Waits, on its first item, until the master has sent every outside item; passes x up to KEPT. */
    private static Node<Long, Long> dropAbove(CountDownLatch allSent) {
        return new Node<>() {
            boolean first = true;

            @Override
            public void onItem(Long x, Outbox<Long> o) throws Exception {
                if (first) {
                    first = false;
                    assertTrue(allSent.await(30, TimeUnit.SECONDS), "the master sent every outside item");
                }
                if (x <= KEPT) {
                    o.send(x);
                }
            }
        };
    }

    /**
     * A master-worker loop's emitter: items from outside go to the worker; what comes back (a Long,
     * or the values of a LongBatch) goes round again while above 0, else is finished.
     */
    private static Node<Object, Long> master(CountDownLatch allSent, AtomicLong fedBack, Runs.Collector<Long> finished) {
        return new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Object x, Outbox<Long> o) {
                if (!c.fromFeedback()) {
                    o.send((Long) x);
                    if ((Long) x == N) {
                        allSent.countDown();
                    }
                } else if (x instanceof LongBatch) {
                    LongBatch b = (LongBatch) x;
                    for (int i = 0; i < b.size; i++) {
                        back(b.values[i], o);
                    }
                } else {
                    back((Long) x, o);
                }
            }

            private void back(long v, Outbox<Long> o) {
                fedBack.incrementAndGet();
                if (v > 0) {
                    o.send(v);
                } else {
                    finished.items.add(v);
                }
            }
        };
    }

    /** The second node of a comb in a loop keeps items while input waits that the first then drops. */
    @Test
    void aKeepingNodeFusedAfterADroppingNodeInALoopSendsWhatItKeptBeforeTheLoopEnds() {
        CountDownLatch allSent = new CountDownLatch(1);
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        Farm<Long, Long> farm = Farm.<Long, Long>of(1, () -> dropAbove(allSent).andThen(PendingInputKeeper.keeper(null)))
                .emitter(master(allSent, fedBack, finished)).feedback().withoutCollector();
        Runs.run(Pipeline.of(Nodes.range(1, N), farm));
        assertEquals(KEPT * (KEPT + 1) / 2, fedBack.get(), "item k goes round k times");
        assertEquals(KEPT, finished.get().size());
    }

    /** The same with the library's own keeper: {@code LongNodes.batch()} fused after a dropping node. */
    @Test
    void batchFusedAfterADroppingNodeInALoopSendsWhatItKeptBeforeTheLoopEnds() {
        CountDownLatch allSent = new CountDownLatch(1);
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        // values go round until 0: each fed-back value v comes back as v - 1 (the map), from v = k down
        Farm<Long, Object> farm = Farm.<Long, Object>of(1, () -> dropAbove(allSent).andThen(Nodes.map((Long x) -> x - 1))
                .andThen(LongNodes.batch())).emitter(master(allSent, fedBack, finished)).feedback().withoutCollector();
        Runs.run(Pipeline.of(Nodes.range(1, N), farm));
        assertEquals(KEPT * (KEPT + 1) / 2, fedBack.get(), "item k goes round k times");
        assertEquals(KEPT, finished.get().size());
    }
    /** The same in an all-to-all loop: the right member is the comb, its sends go back to the left member. */
    @Test
    void aKeepingNodeFusedAfterADroppingNodeInAnAllToAllLoop() {
        CountDownLatch allSent = new CountDownLatch(1);
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(List.of(master(allSent, fedBack, finished)),
                List.of(dropAbove(allSent).andThen(PendingInputKeeper.keeper(null)))).feedback();
        Runs.run(Pipeline.of(Nodes.range(1, N), a2a));
        assertEquals(KEPT * (KEPT + 1) / 2, fedBack.get(), "item k goes round k times");
        assertEquals(KEPT, finished.get().size());
    }

    /**
     * A comb headed by a source heads the loop: it generates every item before it reads what comes
     * back, so fed-back items wait on its input while it generates, and its source drops the last ones
     * fed back (onFeedback sends nothing for them).
     */
    @Test
    void aKeepingNodeFusedAfterASourceThatHeadsALoop() {
        AtomicLong fedBack = new AtomicLong();
        Runs.Collector<Long> finished = new Runs.Collector<>();
        CountDownLatch firstBack = new CountDownLatch(1);
        Source<Long> gen = new Source<>() {
            @Override
            public void generate(Outbox<Long> out) throws Exception {
                for (long i = 1; i <= N; i++) {
                    out.send(i);
                    if (i == 1) {
                        // the first item's answer is waiting on this source's input from here on
                        assertTrue(firstBack.await(30, TimeUnit.SECONDS), "the first item came back");
                    }
                }
            }

            @Override
            public void onFeedback(Long x, Outbox<Long> out) {
                fedBack.incrementAndGet();
                if (x > 0 && x <= KEPT) {
                    out.send(x);
                } else {
                    finished.items.add(x);
                }
            }
        };
        Node<Long, Long> back = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            o.send(x);
            firstBack.countDown(); // after the send: the item waits on the source's input
        });
        Runs.run(Pipeline.of(gen.andThen(PendingInputKeeper.keeper(null)), back).feedback());
        // item k up to KEPT + 1 comes back as k-1, k-2, ..., 0 (k times); a later one once, as k-1 > KEPT
        long expected = (KEPT + 1) * (KEPT + 2) / 2 + (N - KEPT - 1);
        assertEquals(expected, fedBack.get());
        assertEquals(N, finished.get().size());
    }
}
