package org.bbflow.core;

import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The park/unpark handshake of the wait strategies that park ({@link WaitStrategy#backoff()},
 * {@link WaitStrategy#blocking()}), on both sides of a channel: a consumer waiting for an item, a
 * producer waiting for room.
 *
 * <p>The waiter does what {@link Idler#park} does before it parks: it publishes its thread in its
 * {@link Waiter}, then re-checks its wait condition (r1: 1 if the condition holds, 0 if it decides
 * to park). The waker makes the condition true with the real channel operation
 * ({@code offerRaw} / {@code pollRaw}) and then takes the wake-up decision of
 * {@link Link#wakeConsumer()} / {@link Link#wakeProducer()} with the channel's own fence flag
 * (r2: 1 if it sees the parked thread and would unpark it). The waiter does not really park and the
 * waker does not really unpark, so that every round ends; the outcome (0, 0), a waiter that parks
 * with its condition true and nobody to wake it, is FORBIDDEN for {@code blocking()}. For
 * {@code backoff()} it is allowed and counted: that strategy keeps the producer's hot path free of a
 * full fence, so a missed wake-up is possible and its park is bounded by {@code maxPark}, which is
 * exactly what the {@link WaitStrategy} Javadoc promises.
 */
public final class WakeupStress {
    private WakeupStress() {
    }

    static final Integer ITEM = 7;

    /** The decision of Link.wakeConsumer / wakeProducer: fence if the peer's strategy asks, then look. */
    static int wakerSees(boolean wakeable, boolean mustFence, Waiter peer) {
        if (!wakeable) {
            return 1; // the peer never parks: nothing to miss
        }
        if (mustFence) {
            VarHandle.fullFence();
        }
        return peer.parked != null ? 1 : 0;
    }

    /** The consumer's condition in NodeRunner and Channel.take: an item or end of stream. */
    static int itemReady(Channel<Integer> c) {
        return !c.link().queue.isEmpty() || c.isClosed() ? 1 : 0;
    }

    static Channel<Integer> full(WaitStrategy s) {
        Channel<Integer> c = Channel.<Integer>spsc(2).waitStrategy(s);
        while (c.link().offerRaw(ITEM)) {
            // fill to capacity
        }
        return c;
    }

    /** Backoff (the default strategy): consumer parks on an empty channel, producer offers. */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the waiter sees the item or is woken")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE_INTERESTING,
            desc = "missed wake-up: backoff does not fence the waker, so the park lasts at most maxPark (as WaitStrategy states)")
    @State
    public static class BackoffConsumer {
        final Channel<Integer> c = Channel.<Integer>spsc(2).waitStrategy(WaitStrategy.backoff());

        @Actor
        public void waiter(II_Result r) {
            c.link().consumerWaiter.parked = Thread.currentThread();
            r.r1 = itemReady(c);
        }

        @Actor
        public void waker(II_Result r) {
            c.link().offerRaw(ITEM);
            r.r2 = wakerSees(c.link().consumerWakeable, c.link().producerMustFence, c.link().consumerWaiter);
        }
    }

    /** Blocking: consumer parks on an empty channel, producer offers. */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the waiter sees the item or is woken")
    @Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: consumer parks with an item waiting")
    @State
    public static class BlockingConsumer {
        final Channel<Integer> c = Channel.<Integer>spsc(2).waitStrategy(WaitStrategy.blocking());

        @Actor
        public void waiter(II_Result r) {
            c.link().consumerWaiter.parked = Thread.currentThread();
            r.r1 = itemReady(c);
        }

        @Actor
        public void waker(II_Result r) {
            c.link().offerRaw(ITEM);
            r.r2 = wakerSees(c.link().consumerWakeable, c.link().producerMustFence, c.link().consumerWaiter);
        }
    }

    /** Backoff: producer parks on a full channel, consumer polls. */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the waiter sees room or is woken")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE_INTERESTING,
            desc = "missed wake-up: backoff does not fence the waker, so the park lasts at most maxPark (as WaitStrategy states)")
    @State
    public static class BackoffProducer {
        final Channel<Integer> c = full(WaitStrategy.backoff());

        @Actor
        public void waiter(II_Result r) {
            c.link().producerWaiter.parked = Thread.currentThread();
            r.r1 = c.link().hasRoom() ? 1 : 0;
        }

        @Actor
        public void waker(II_Result r) {
            c.link().pollRaw();
            r.r2 = wakerSees(c.link().producerWakeable, c.link().consumerMustFence, c.link().producerWaiter);
        }
    }

    /** Blocking: producer parks on a full channel, consumer polls. */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the waiter sees room or is woken")
    @Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: producer parks with room in the channel")
    @State
    public static class BlockingProducer {
        final Channel<Integer> c = full(WaitStrategy.blocking());

        @Actor
        public void waiter(II_Result r) {
            c.link().producerWaiter.parked = Thread.currentThread();
            r.r1 = c.link().hasRoom() ? 1 : 0;
        }

        @Actor
        public void waker(II_Result r) {
            c.link().pollRaw();
            r.r2 = wakerSees(c.link().producerWakeable, c.link().consumerMustFence, c.link().producerWaiter);
        }
    }

    /**
     * Two peers wake one parked thread at once (a farm's two workers and their parked collector):
     * exactly one takes it out of the slot and unparks it ({@link Waiter#takeParked}), so a parked
     * thread costs one unpark however many items arrive before it runs again. Each actor's r is 1 if
     * it took the thread. The thread is a stand-in that is never started: nothing is really unparked.
     */
    @JCStressTest
    @Outcome(id = {"1, 0", "0, 1"}, expect = Expect.ACCEPTABLE, desc = "one waker takes the parked thread")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "both wakers took it: two unparks for one park")
    @Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "nobody took it: the parked thread is never woken")
    @State
    public static class OneUnparkPerPark {
        final Waiter w = new Waiter();

        OneUnparkPerPark() {
            w.parked = new Thread(() -> { });
        }

        @Actor
        public void first(II_Result r) {
            r.r1 = w.takeParked() != null ? 1 : 0;
        }

        @Actor
        public void second(II_Result r) {
            r.r2 = w.takeParked() != null ? 1 : 0;
        }
    }
}
