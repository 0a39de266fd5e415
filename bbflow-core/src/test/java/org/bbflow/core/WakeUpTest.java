package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wake-ups of the blocking strategy must never be lost: with the park cap raised to 30 s, a lost
 * wake-up shows as a put that takes (about) 30 s instead of microseconds.
 */
@Timeout(120)
class WakeUpTest {
    private static final long CAP = Duration.ofSeconds(30).toNanos();
    /** Far above any scheduling delay on a loaded 2-core machine, far below the cap. */
    private static final long SLOW_PUT = Duration.ofSeconds(5).toNanos();
    private long savedCap;

    @BeforeEach
    void raiseParkCap() {
        savedCap = WaitStrategy.blockingParkNanos;
        WaitStrategy.blockingParkNanos = CAP;
    }

    @AfterEach
    void restoreParkCap() {
        WaitStrategy.blockingParkNanos = savedCap;
    }

    @Test
    void mpscPutOfManyProducersIsAlwaysWoken() throws Exception {
        int producers = 4;
        int puts = 20_000;
        Channel<Long> c = Channel.<Long>mpsc(2).waitStrategy(WaitStrategy.blocking());
        c.expectProducers(producers);
        AtomicLong slowest = new AtomicLong();
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            threads[p] = new Thread(() -> {
                try {
                    long max = 0;
                    for (int i = 0; i < puts; i++) {
                        long t0 = System.nanoTime();
                        c.put((long) i);
                        max = Math.max(max, System.nanoTime() - t0);
                    }
                    slowest.accumulateAndGet(max, Math::max);
                    c.close();
                } catch (Throwable t) {
                    error.set(t);
                }
            }, "producer-" + p);
            threads[p].setDaemon(true);
            threads[p].start();
        }
        long sum = 0;
        long count = 0;
        for (Long x; (x = c.take()) != null; ) {
            sum += x;
            count++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(error.get());
        assertEquals((long) producers * puts, count);
        assertEquals(producers * ((long) puts * (puts - 1) / 2), sum);
        assertTrue(slowest.get() < SLOW_PUT, "a put waited " + Duration.ofNanos(slowest.get())
                + ": its wake-up was lost and only the park cap ended the wait");
    }

    @Test
    void mpscProducerNodesOfAFlowAreAlwaysWoken() {
        int producers = 4;
        long items = 20_000;
        LongAdder count = new LongAdder();
        Farm<Void, Long> sources = Farm.<Void, Long>of(producers, () -> Nodes.range(1, items))
                .withoutEmitter()
                .channels(ChannelSpec.mpsc(2).withWaitStrategy(WaitStrategy.blocking()));
        RunStats stats = Runs.run(Pipeline.of(sources, Nodes.sink((Long x) -> count.increment())),
                FlowOptions.defaults().withWaitStrategy(WaitStrategy.blocking()), Duration.ofSeconds(25));
        assertEquals(producers * items, count.sum(), stats.table());
    }

    /**
     * On a plain edge the consumer's run wakes a producer parked for room at the item that makes the
     * room, not only once the channel is drained: the sink, at item 49, waits until the source is
     * parked (its 4-slot channel holds 50..53 and it waits to send 54); at item 50 (polled after that
     * park) it waits for the source to have sent 54, which only a wake-up can bring within the 30 s
     * park cap.
     */
    @Test
    void aProducerParkedOnAFullPlainEdgeIsWokenByTheItemThatMakesRoom() {
        AtomicReference<Thread> sourceThread = new AtomicReference<>();
        AtomicLong sent = new AtomicLong();
        AtomicReference<String> failure = new AtomicReference<>();
        Source<Long> source = Nodes.source(out -> {
            sourceThread.set(Thread.currentThread());
            for (long i = 1; i <= 100; i++) {
                out.send(i);
                sent.set(i);
            }
        });
        Node<Long, Void> sink = Nodes.sink((Long x) -> {
            long deadline = System.nanoTime() + SLOW_PUT;
            if (x == 49) {
                // parked for room to send 54: it has sent 53 (which taking 49 made room for) and waits.
                // The state alone is not enough: the source may still be parked from its wait to send 53
                // (until taking 49 wakes it), and one read of each decides (a second read may see it
                // running between the two parks).
                boolean parked;
                while (!(parked = sent.get() == 53 && sourceThread.get().getState() == Thread.State.TIMED_WAITING)
                        && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                if (!parked) {
                    failure.compareAndSet(null, "the source never parked for room to send 54 (state "
                            + sourceThread.get().getState() + ", sent " + sent.get() + ")");
                }
            } else if (x == 50) {
                while (sent.get() < 54 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                if (sent.get() < 54) {
                    failure.compareAndSet(null, "taking item 50 did not wake the source parked for room: it sent "
                            + sent.get() + " of the 54 the channel has room for");
                }
            }
        });
        RunStats stats = Runs.run(Pipeline.of(source, sink), FlowOptions.defaults()
                .withWaitStrategy(WaitStrategy.blocking()).withChannels(ChannelSpec.bounded(4)), Duration.ofSeconds(60));
        assertNull(failure.get(), stats.table());
    }
}
