package org.bbflow.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * An offer to an MPSC {@link Channel} racing another thread's {@link Channel#close()}: that thread
 * closes the channel and then reads it to end of stream. The offer is either refused (it throws) and
 * its item never delivered, or accepted and its item delivered exactly once before end of stream.
 * One test per way of reading: {@link Channel#take()}, the runtime's poll / isClosed / poll step
 * ({@link Nodes#fromChannel}), and an {@link Channel#isEos()} loop. Two actors, so that it runs on
 * two CPUs.
 *
 * <p>Results: (the offer: 1 accepted, 0 refused, 2 full; items read before end of stream; items
 * left in the channel afterwards).
 */
public final class MpscCloseStress {
    private MpscCloseStress() {
    }

    static final Integer ITEM = 7;

    static int offer(Channel<Integer> c) {
        try {
            return c.offer(ITEM) ? 1 : 2;
        } catch (IllegalStateException closed) {
            return 0;
        }
    }

    static int left(Channel<Integer> c) {
        int n = 0;
        while (c.poll() != null) {
            n++;
        }
        return n;
    }

    /** Close, then {@link Channel#take()} to end of stream. */
    @JCStressTest
    @Outcome(id = {"1, 1, 0", "0, 0, 0"}, expect = Expect.ACCEPTABLE, desc = "accepted and read, or refused and not delivered")
    @Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "accepted, but end of stream came before its item: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost, delivered twice, or delivered although refused")
    @State
    public static class Take {
        final Channel<Integer> c = Channel.mpsc(4);

        @Actor
        public void producer(III_Result r) {
            r.r1 = offer(c);
        }

        @Actor
        public void closerAndConsumer(III_Result r) {
            c.close();
            int n = 0;
            while (c.take() != null) {
                n++;
            }
            r.r2 = n;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = left(c);
        }
    }

    /** Close, then the runtime's step: poll; on nothing, if closed, poll once more; nothing is EOS. */
    @JCStressTest
    @Outcome(id = {"1, 1, 0", "0, 0, 0"}, expect = Expect.ACCEPTABLE, desc = "accepted and read, or refused and not delivered")
    @Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "accepted, but end of stream came before its item: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost, delivered twice, or delivered although refused")
    @State
    public static class PollStep {
        final Channel<Integer> c = Channel.mpsc(4);

        @Actor
        public void producer(III_Result r) {
            r.r1 = offer(c);
        }

        @Actor
        public void closerAndConsumer(III_Result r) {
            c.close();
            int n = 0;
            while (true) {
                Integer x = c.poll();
                if (x == null && c.isClosed()) {
                    x = c.poll();
                    if (x == null) {
                        break;
                    }
                }
                if (x != null) {
                    n++;
                }
            }
            r.r2 = n;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = left(c);
        }
    }

    /** Close, then poll until {@link Channel#isEos()}. */
    @JCStressTest
    @Outcome(id = {"1, 1, 0", "0, 0, 0"}, expect = Expect.ACCEPTABLE, desc = "accepted and read, or refused and not delivered")
    @Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "accepted, but end of stream came before its item: item lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "item lost, delivered twice, or delivered although refused")
    @State
    public static class IsEos {
        final Channel<Integer> c = Channel.mpsc(4);

        @Actor
        public void producer(III_Result r) {
            r.r1 = offer(c);
        }

        @Actor
        public void closerAndConsumer(III_Result r) {
            c.close();
            int n = 0;
            while (!c.isEos()) {
                if (c.poll() != null) {
                    n++;
                }
            }
            r.r2 = n;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = left(c);
        }
    }
}
