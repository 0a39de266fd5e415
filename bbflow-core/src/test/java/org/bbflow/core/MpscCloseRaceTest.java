package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One producer of an MPSC channel closes it while another's offer has claimed its slot but not put
 * its item in yet (held there by a {@link ClaimHookQueue}). The offer returns true, so its item must
 * reach the consumer: a consumer that saw the channel closed and found the slot empty (the design
 * before the closable queue, without its account of offers under way, did) would end its stream and
 * lose the accepted item.
 */
@Timeout(30)
class MpscCloseRaceTest {
    /** How long the hook holds the offer at most: the consumer must wait for it, however long. */
    private static final long HOLD_MILLIS = 500;

    @AfterEach
    void clearHook() {
        Channel.mpscQueueHook = null;
    }

    @Test
    void anOfferAcceptedWhileAnotherProducerClosesIsDelivered() throws Exception {
        for (boolean viaTake : new boolean[] {true, false}) {
            CountDownLatch inOffer = new CountDownLatch(1);
            Channel.mpscQueueHook = capacity -> new ClaimHookQueue<>(capacity, () -> {
                inOffer.countDown();
                try {
                    Thread.sleep(HOLD_MILLIS); // bounded: a correct consumer waits for it whatever its length
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Channel<Long> c = Channel.mpsc(16);
            Channel.mpscQueueHook = null;
            AtomicReference<Object> offered = new AtomicReference<>();
            Thread producer = new Thread(() -> {
                try {
                    offered.set(c.offer(7L));
                } catch (RuntimeException e) {
                    offered.set(e);
                }
            }, "mpsc-producer");
            producer.start();
            assertTrue(inOffer.await(10, TimeUnit.SECONDS), "the offer never reached the hook");
            c.close(); // the other producer's end of stream, while the first offer is under way
            Long got;
            if (viaTake) {
                got = c.take();
            } else {
                // the consumer's other way: the stream has ended once the channel is closed and empty
                got = c.isClosed() ? c.poll() : null;
            }
            producer.join(10_000);
            assertEquals(Boolean.TRUE, offered.get(), "the offer was accepted");
            assertEquals(7L, got, (viaTake ? "take()" : "isClosed() then poll()") + " ended the stream before the"
                    + " accepted offer's item was in: the item was lost");
            assertNull(c.take(), "then end of stream");
            assertTrue(c.isEos());
        }
    }

    /**
     * A drained channel may still change its wait strategy, which gives it a new, empty queue: the
     * close and the consumer's end of stream then concern the new queue alone (the old design's
     * account of offers had to restart with it, else take() waited for an offer of the old queue).
     */
    @Test
    void aNewWaitStrategyAfterUseEndsTheStreamOfTheNewQueue() throws Exception {
        Channel<Long> c = Channel.mpsc(4);
        assertTrue(c.offer(1L));
        assertEquals(1L, c.poll());
        c.waitStrategy(WaitStrategy.busySpin());
        assertTrue(c.offer(2L));
        c.close();
        AtomicReference<Object> got = new AtomicReference<>("nothing yet");
        Thread consumer = new Thread(() -> got.set(String.valueOf(c.take()) + "," + c.take()), "mpsc-consumer");
        consumer.setDaemon(true);
        consumer.start();
        consumer.join(10_000);
        assertFalse(consumer.isAlive(), "take() still waiting for an offer of the old queue");
        assertEquals("2,null", got.get());
    }

    @Test
    void anOfferAfterTheCloseIsStillRefused() {
        Channel<Long> c = Channel.mpsc(4);
        c.close();
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> c.offer(1L));
        assertEquals("offer on a closed channel", e.getMessage());
        assertFalse(c.isClosed() && c.poll() != null);
        assertTrue(c.isEos());
    }
}
