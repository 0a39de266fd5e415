package org.bbflow.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The end-of-stream protocol of a {@link Channel}: a producer offers one item and then closes; the
 * consumer must see that item exactly once, and before it concludes end of stream. One test per
 * channel kind and per way of reading (the runtime's non-blocking poll / isClosed / poll step, the
 * public {@link Channel#take()} and {@link Channel#isEos()}).
 *
 * <p>Results of the poll tests: (items the consumer got, whether it concluded EOS, items it got plus
 * items left in the channel afterwards).
 */
public final class ChannelEosStress {
    private ChannelEosStress() {
    }

    static final Integer ITEM = 42;

    /**
     * Up to two reading rounds of the runtime's input loop (NodeRunner): poll; on nothing, if the
     * channel is closed, poll once more and conclude EOS only if that also finds nothing.
     */
    static void consume(Channel<Integer> c, III_Result r) {
        int seen = 0;
        int eos = 0;
        for (int round = 0; round < 2 && eos == 0; round++) {
            Integer x = c.poll();
            if (x != null) {
                seen += x.equals(ITEM) ? 1 : 100;
                continue;
            }
            if (c.isClosed()) {
                x = c.poll();
                if (x != null) {
                    seen += x.equals(ITEM) ? 1 : 100;
                } else {
                    eos = 1;
                }
            }
        }
        r.r1 = seen;
        r.r2 = eos;
    }

    static void produce(Channel<Integer> c) {
        c.offer(ITEM);
        c.close();
    }

    static void settle(Channel<Integer> c, III_Result r) {
        int left = 0;
        while (c.poll() != null) {
            left++;
        }
        r.r3 = r.r1 + left;
    }

    /** Bounded SPSC channel, the default of every edge. */
    @JCStressTest
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "1, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "item seen once, EOS only after it")
    @Outcome(id = "0, 1, 1", expect = Expect.FORBIDDEN, desc = "EOS concluded although the item was still to come: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost or delivered twice")
    @State
    public static class Spsc {
        final Channel<Integer> c = Channel.spsc(4);

        @Actor
        public void producer() {
            produce(c);
        }

        @Actor
        public void consumer(III_Result r) {
            consume(c, r);
        }

        @Arbiter
        public void after(III_Result r) {
            settle(c, r);
        }
    }

    /** Unbounded SPSC channel (feedback edges). */
    @JCStressTest
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "1, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "item seen once, EOS only after it")
    @Outcome(id = "0, 1, 1", expect = Expect.FORBIDDEN, desc = "EOS concluded although the item was still to come: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost or delivered twice")
    @State
    public static class SpscUnbounded {
        final Channel<Integer> c = Channel.spscUnbounded();

        @Actor
        public void producer() {
            produce(c);
        }

        @Actor
        public void consumer(III_Result r) {
            consume(c, r);
        }

        @Arbiter
        public void after(III_Result r) {
            settle(c, r);
        }
    }

    /** Bounded MPSC channel (shared input of a node). */
    @JCStressTest
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "1, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "item seen once, EOS only after it")
    @Outcome(id = "0, 1, 1", expect = Expect.FORBIDDEN, desc = "EOS concluded although the item was still to come: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost or delivered twice")
    @State
    public static class Mpsc {
        final Channel<Integer> c = Channel.mpsc(4);

        @Actor
        public void producer() {
            produce(c);
        }

        @Actor
        public void consumer(III_Result r) {
            consume(c, r);
        }

        @Arbiter
        public void after(III_Result r) {
            settle(c, r);
        }
    }

    /**
     * The public blocking read: {@link Channel#take()} twice must give the item, then EOS (null).
     * The consumer may wait, but the producer never does, so every round ends.
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the item, then EOS")
    @Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "EOS first: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item delivered twice or out of order")
    @State
    public static class Take {
        final Channel<Integer> c = Channel.<Integer>spsc(4).waitStrategy(WaitStrategy.backoff());

        @Actor
        public void producer() {
            produce(c);
        }

        @Actor
        public void consumer(II_Result r) {
            r.r1 = ITEM.equals(c.take()) ? 1 : 0;
            r.r2 = c.take() == null ? 0 : 1;
        }
    }

    /** {@link Channel#isEos()} true means no item can follow. */
    @JCStressTest
    @Outcome(id = {"0, 0", "0, 1"}, expect = Expect.ACCEPTABLE, desc = "not at EOS yet (the item may follow)")
    @Outcome(expect = Expect.FORBIDDEN, desc = "isEos() was true although the item offered before close() was never read")
    @State
    public static class IsEos {
        final Channel<Integer> c = Channel.spsc(4);

        @Actor
        public void producer() {
            produce(c);
        }

        @Actor
        public void consumer(II_Result r) {
            r.r1 = c.isEos() ? 1 : 0;
            r.r2 = c.poll() != null ? 1 : 0;
        }
    }
}
