package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Offers from several producers of an MPSC channel race a {@link Channel#close()} made by one of them,
 * against a sequential oracle: every offer that returned true is delivered exactly once, in its
 * producer's order, before the consumer sees end of stream; nothing else is delivered. Many seeded
 * repetitions (producers, capacity, where the close falls, put or offer, and the consumer's way of
 * reading: {@code take()}, the runtime's poll / isClosed / poll step, or an {@code isEos()} loop);
 * a {@link ClaimHookQueue} yields or spins now and then between an offer's claim of a slot and its
 * write of the item, the window of the race. Bounded by {@value #REPETITIONS} repetitions and {@value #BUDGET_SECONDS} s.
 */
@Timeout(120)
class MpscCloseStressTest {
    private static final int REPETITIONS = 1500;
    private static final long BUDGET_SECONDS = 15;
    /** How long a repetition's threads may take (they take milliseconds; a hang is a failure). */
    private static final long JOIN_MILLIS = 10_000;
    private static final int[] CAPACITIES = {1, 2, 4, 64};
    private static final long PRODUCER_STRIDE = 1_000_000L;

    @AfterEach
    void clearHook() {
        Channel.mpscQueueHook = null;
    }

    @Test
    void offersRacingACloseFromAnotherProducerAreDeliveredExactlyOnceOrRefused() throws Exception {
        System.out.println("MpscCloseStressTest: root seed " + TestSeed.root() + " (rerun: -Dbbflow.seed="
                + TestSeed.root() + "), test seed " + TestSeed.current());
        Runnable widen = () -> {
            int r = ThreadLocalRandom.current().nextInt(16);
            if (r == 0) {
                Thread.yield();
            } else if (r < 4) {
                Thread.onSpinWait();
            }
        };
        Channel.mpscQueueHook = capacity -> new ClaimHookQueue<>(capacity, widen);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BUDGET_SECONDS);
        int done = 0;
        for (int rep = 0; rep < REPETITIONS && System.nanoTime() < deadline; rep++) {
            runOnce(rep, TestSeed.mix(rep));
            done++;
        }
        System.out.println("MpscCloseStressTest: " + done + " repetitions passed");
        assertTrue(done > 0);
    }

    private static void runOnce(int rep, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        int producers = 2 + rnd.nextInt(3);
        int capacity = CAPACITIES[rnd.nextInt(CAPACITIES.length)];
        int perProducer = 1 + rnd.nextInt(300);
        int closer = rnd.nextInt(producers);
        int closeAfter = rnd.nextInt(perProducer + 1);
        int reader = rnd.nextInt(3);
        boolean usePut = rnd.nextBoolean();
        String where = "repetition " + rep + " seed " + seed + " (" + producers + " producers, capacity " + capacity
                + ", " + perProducer + " items each, producer " + closer + " closes after " + closeAfter + ", "
                + (usePut ? "put" : "offer") + ", reader " + reader + ")";

        Channel<Long> c = Channel.mpsc(capacity);
        CountDownLatch start = new CountDownLatch(1);
        List<List<Long>> accepted = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            List<Long> mine = new ArrayList<>();
            accepted.add(mine);
            int id = p;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perProducer; i++) {
                        if (id == closer && i == closeAfter) {
                            c.close();
                        }
                        long item = id * PRODUCER_STRIDE + i;
                        try {
                            if (usePut) {
                                c.put(item);
                            } else {
                                while (!c.offer(item)) {
                                    Thread.onSpinWait(); // full: a refused offer, not an accepted one
                                }
                            }
                        } catch (IllegalStateException closed) {
                            if (!"offer on a closed channel".equals(closed.getMessage())) {
                                throw closed;
                            }
                            return; // refused: this item and every later one of this producer
                        }
                        mine.add(item);
                    }
                    if (id == closer) {
                        c.close(); // closeAfter == perProducer: after its last item
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "mpsc-stress-producer-" + p));
        }
        List<Long> delivered = new ArrayList<>();
        Thread consumer = new Thread(() -> {
            try {
                start.await();
                read(c, reader, delivered);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "mpsc-stress-consumer");
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        consumer.setDaemon(true);
        consumer.start();
        start.countDown();
        for (Thread t : threads) {
            t.join(JOIN_MILLIS);
            if (t.isAlive()) {
                fail(t.getName() + " did not end in " + JOIN_MILLIS + " ms: " + where);
            }
        }
        consumer.join(JOIN_MILLIS);
        if (consumer.isAlive()) {
            fail("the consumer did not reach end of stream in " + JOIN_MILLIS + " ms: " + where);
        }
        if (failure.get() != null) {
            throw new AssertionError(where + ": " + failure.get(), failure.get());
        }
        // the oracle: per producer, exactly its accepted items, in its order
        Map<Long, List<Long>> got = new HashMap<>();
        for (long x : delivered) {
            got.computeIfAbsent(x / PRODUCER_STRIDE, k -> new ArrayList<>()).add(x);
        }
        for (int p = 0; p < producers; p++) {
            List<Long> want = accepted.get(p);
            List<Long> saw = got.getOrDefault((long) p, List.of());
            if (!want.equals(saw)) {
                fail("producer " + p + ": accepted " + want.size() + " items, consumer got " + saw.size()
                        + " before end of stream (lost, duplicated, reordered or never offered): " + where
                        + "\naccepted tail " + tail(want) + "\ndelivered tail " + tail(saw));
            }
        }
        for (long p : got.keySet()) {
            assertTrue(p >= 0 && p < producers, "an item no producer offered: " + where);
        }
        assertNull(c.poll(), "an item after end of stream: " + where);
        assertTrue(c.isEos(), where);
    }

    /** Reads to end of stream one of three ways, as a consumer of the public channel can. */
    private static void read(Channel<Long> c, int reader, List<Long> delivered) {
        switch (reader) {
            case 0:
                for (Long x; (x = c.take()) != null; ) {
                    delivered.add(x);
                }
                return;
            case 1:
                // the runtime's step (Nodes.fromChannel): poll; on nothing, if closed, poll once more
                while (true) {
                    Long x = c.poll();
                    if (x == null) {
                        if (!c.isClosed()) {
                            Thread.onSpinWait();
                            continue;
                        }
                        x = c.poll();
                        if (x == null) {
                            return;
                        }
                    }
                    delivered.add(x);
                }
            default:
                while (!c.isEos()) {
                    Long x = c.poll();
                    if (x != null) {
                        delivered.add(x);
                    } else {
                        Thread.onSpinWait();
                    }
                }
        }
    }

    private static List<Long> tail(List<Long> l) {
        return l.subList(Math.max(0, l.size() - 3), l.size());
    }
}
