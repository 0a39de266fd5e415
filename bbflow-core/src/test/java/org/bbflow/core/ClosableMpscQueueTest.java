package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ClosableMpscQueue} against a sequential model: one thread's random operations against an
 * {@link ArrayDeque} of the same capacity; then seeded producers racing a close made at a random
 * point, every accepted element delivered exactly once in its producer's order, nothing refused
 * delivered, and the strict poll after the close returning null only when every claimed slot was
 * read. Seeds are printed (rerun: {@code -Dbbflow.seed=...}).
 */
@Timeout(120)
class ClosableMpscQueueTest {
    private static final int[] CAPACITIES = {1, 2, 3, 4, 5, 16, 64};
    private static final long PRODUCER_STRIDE = 1_000_000L;
    private static final long JOIN_MILLIS = 10_000;
    private static final int REPETITIONS = 2000;
    private static final long BUDGET_SECONDS = 15;

    @Test
    void capacityIsRoundedUpToAPowerOfTwoAndOneStaysOne() {
        assertEquals(1, new ClosableMpscQueue<>(1).capacity());
        assertEquals(2, new ClosableMpscQueue<>(2).capacity());
        assertEquals(4, new ClosableMpscQueue<>(3).capacity());
        assertEquals(1024, new ClosableMpscQueue<>(1000).capacity());
        assertEquals(1024, new ClosableMpscQueue<>(1024).capacity());
        assertThrows(IllegalArgumentException.class, () -> new ClosableMpscQueue<>(0));
    }

    @Test
    void aClosedQueueRefusesOffersAndStillDeliversWhatItHolds() {
        ClosableMpscQueue<Integer> q = new ClosableMpscQueue<>(4);
        assertTrue(q.offer(1));
        assertTrue(q.offer(2));
        assertTrue(q.close());
        assertFalse(q.close(), "closing twice");
        assertTrue(q.isClosed());
        assertFalse(q.offer(3), "an offer after the close");
        assertEquals(2, q.size());
        assertEquals(2, q.claimedSlots());
        assertEquals(1, q.poll());
        assertEquals(2, q.relaxedPoll());
        assertNull(q.poll());
        assertTrue(q.isEmpty());
        assertEquals(0, q.size());
    }

    /** One thread, random operations, against an ArrayDeque bounded by the same capacity. */
    @Test
    void oneThreadAgainstASequentialModel() {
        long seed = TestSeed.current();
        System.out.println("ClosableMpscQueueTest sequential: seed " + seed + " (root " + TestSeed.root() + ")");
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int run = 0; run < 200; run++) {
            int requested = CAPACITIES[rnd.nextInt(CAPACITIES.length)];
            ClosableMpscQueue<Integer> q = new ClosableMpscQueue<>(requested);
            int capacity = q.capacity();
            ArrayDeque<Integer> model = new ArrayDeque<>();
            boolean closed = false;
            long accepted = 0;
            int next = 0;
            for (int step = 0; step < 500; step++) {
                String where = "seed " + seed + " run " + run + " step " + step + " capacity " + capacity;
                int op = rnd.nextInt(100);
                if (op < 45) {
                    boolean want = !closed && model.size() < capacity;
                    assertEquals(want, q.offer(next), "offer: " + where);
                    if (want) {
                        model.addLast(next);
                        accepted++;
                    }
                    next++;
                } else if (op < 70) {
                    assertEquals(model.pollFirst(), q.relaxedPoll(), "relaxedPoll: " + where);
                } else if (op < 90) {
                    assertEquals(model.pollFirst(), q.poll(), "poll: " + where);
                } else if (op < 93) {
                    assertEquals(model.peekFirst(), q.relaxedPeek(), "peek: " + where);
                } else if (op < 94) {
                    assertEquals(!closed, q.close(), "close: " + where);
                    closed = true;
                } else {
                    assertEquals(model.size(), q.size(), "size: " + where);
                    assertEquals(model.isEmpty(), q.isEmpty(), "isEmpty: " + where);
                    assertEquals(closed, q.isClosed(), "isClosed: " + where);
                    assertEquals(accepted, q.claimedSlots(), "claimedSlots: " + where);
                }
            }
        }
    }

    /**
     * Producers race a close made at a random point, by one of them or by a thread of its own; a hook
     * yields or spins now and then between an offer's claim and its write. The consumer reads as a
     * channel's does: relaxed polls until it sees the close (a volatile flag set after the queue's
     * close, as Link sets its own), then strict polls until null. The model: per producer, exactly its
     * accepted elements, in its order; every offer after the close refused; the consumer read exactly
     * the slots claimed. Each repetition's threads go through {@value #ROUNDS} queues in turn (one
     * close each), so that the race of a close with the producers' claims is run often.
     */
    @Test
    void producersRacingACloseAgainstTheModel() throws Exception {
        System.out.println("ClosableMpscQueueTest concurrent: root seed " + TestSeed.root() + " (rerun: -Dbbflow.seed="
                + TestSeed.root() + "), test seed " + TestSeed.current());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BUDGET_SECONDS);
        int done = 0;
        for (int rep = 0; rep < REPETITIONS && System.nanoTime() < deadline; rep++) {
            runOnce(rep, TestSeed.mix(rep));
            done++;
        }
        System.out.println("ClosableMpscQueueTest concurrent: " + done + " repetitions of " + ROUNDS + " closes passed");
        assertTrue(done > 0);
    }

    private static final int ROUNDS = 50;

    /** One queue of a repetition, and its plan: who closes it and when. */
    private static final class Round {
        final ClosableMpscQueue<Long> q;
        /** A producer's index, or the producer count for the closing thread of its own. */
        final int closer;
        final int closeAfter;
        final long closeAt;
        final List<List<Long>> accepted = new ArrayList<>();
        final List<Long> delivered = new ArrayList<>();
        /** The consumer's view of the close: set after the queue's close, as Link sets {@code closed}. */
        volatile boolean closed;

        Round(ClosableMpscQueue<Long> q, int producers, int closer, int closeAfter, long closeAt) {
            this.q = q;
            this.closer = closer;
            this.closeAfter = closeAfter;
            this.closeAt = closeAt;
            for (int p = 0; p < producers; p++) {
                accepted.add(new ArrayList<>());
            }
        }

        void close() {
            q.close();
            closed = true;
        }

        String plan(int producers) {
            return closer < producers ? "producer " + closer + " closes after " + closeAfter : "closer at " + closeAt;
        }
    }

    private static void runOnce(int rep, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        int producers = 2 + rnd.nextInt(3);
        int capacity = CAPACITIES[rnd.nextInt(CAPACITIES.length)];
        int perProducer = 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 200);
        int widen = rnd.nextInt(9); // how often the hook widens the claim-to-write window (0: never)
        String where = "repetition " + rep + " seed " + seed + " (" + producers + " producers, capacity " + capacity
                + ", " + perProducer + " items each, widen " + widen + ")";
        Round[] rounds = new Round[ROUNDS];
        boolean ownCloser = false;
        for (int r = 0; r < ROUNDS; r++) {
            ClosableMpscQueue<Long> q = widen == 0 ? new ClosableMpscQueue<>(capacity) : new ClaimHookQueue<>(capacity, () -> {
                int x = ThreadLocalRandom.current().nextInt(16 * widen);
                if (x == 0) {
                    Thread.yield();
                } else if (x < 4) {
                    Thread.onSpinWait();
                }
            });
            // the close: by a producer after some of its items, or (closer == producers) by a thread of
            // its own, spinning, once the producers have claimed closeAt slots: it closes while they CAS
            int closer = rnd.nextInt(producers + 1);
            ownCloser |= closer == producers;
            rounds[r] = new Round(q, producers, closer, rnd.nextInt(perProducer + 1),
                    rnd.nextLong((long) producers * perProducer + 1));
        }
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (Round round : rounds) {
                        produce(round, id, perProducer);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "closable-mpsc-producer-" + p));
        }
        if (ownCloser) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (Round round : rounds) {
                        if (round.closer != producers) {
                            continue;
                        }
                        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS / 2);
                        for (int spins = 0; round.q.claimedSlots() < round.closeAt && System.nanoTime() < giveUp; spins++) {
                            pause(spins);
                        }
                        round.close();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "closable-mpsc-closer"));
        }
        AtomicInteger consumerAt = new AtomicInteger();
        Thread consumer = new Thread(() -> {
            try {
                start.await();
                for (int r = 0; r < ROUNDS; r++) {
                    consumerAt.set(r);
                    consume(rounds[r]);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "closable-mpsc-consumer");
        threads.add(consumer);
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        start.countDown();
        long joinBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            if (t.isAlive()) {
                int r = consumerAt.get();
                fail(t.getName() + " did not end in " + JOIN_MILLIS + " ms (the consumer in round " + r + ", "
                        + rounds[r].plan(producers)
                        + ", closed " + rounds[r].q.isClosed() + ", claimed " + rounds[r].q.claimedSlots() + ", read "
                        + rounds[r].delivered.size() + "): " + where);
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(where + ": " + failure.get(), failure.get());
        }
        for (int r = 0; r < ROUNDS; r++) {
            check(rounds[r], producers, perProducer, where + ", round " + r + " (" + rounds[r].plan(producers) + ")");
        }
    }

    private static void produce(Round round, int id, int perProducer) {
        ClosableMpscQueue<Long> q = round.q;
        List<Long> mine = round.accepted.get(id);
        int spins = 0;
        for (int i = 0; i <= perProducer; i++) {
            if (id == round.closer && i == round.closeAfter) {
                round.close();
            }
            if (i == perProducer) {
                return;
            }
            long item = id * PRODUCER_STRIDE + i;
            while (!q.offer(item)) {
                if (q.isClosed()) {
                    // refused: this item and every later one of this producer
                    if (q.offer(item + PRODUCER_STRIDE / 2)) {
                        throw new AssertionError("an offer after the close was accepted");
                    }
                    return;
                }
                pause(spins++); // full
            }
            mine.add(item);
        }
    }

    private static void consume(Round round) {
        ClosableMpscQueue<Long> q = round.q;
        for (int spins = 0; ; ) {
            Long x = q.relaxedPoll();
            if (x == null) {
                if (!round.closed) {
                    pause(spins++);
                    continue;
                }
                x = q.poll();
                if (x == null) {
                    return;
                }
            }
            round.delivered.add(x);
        }
    }

    /** Spins, yielding now and then: more threads than cores run here. */
    private static void pause(int spins) {
        if ((spins & 63) == 63) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static void check(Round round, int producers, int perProducer, String where) {
        List<List<Long>> got = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            got.add(new ArrayList<>());
        }
        for (long x : round.delivered) {
            int p = (int) (x / PRODUCER_STRIDE);
            if (p < 0 || p >= producers || x % PRODUCER_STRIDE >= perProducer) {
                fail("an element no producer had accepted: " + x + ": " + where);
            }
            got.get(p).add(x);
        }
        for (int p = 0; p < producers; p++) {
            if (!round.accepted.get(p).equals(got.get(p))) {
                fail("producer " + p + ": accepted " + round.accepted.get(p).size() + " elements, the consumer read "
                        + got.get(p).size() + " before the end (lost, duplicated or reordered): " + where);
            }
        }
        assertEquals(round.q.claimedSlots(), round.delivered.size(), "the consumer read every claimed slot: " + where);
        assertNull(round.q.poll(), where);
        assertTrue(round.q.isEmpty() && round.q.isClosed(), where);
    }
}
