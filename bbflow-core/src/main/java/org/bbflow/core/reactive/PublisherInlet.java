package org.bbflow.core.reactive;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.StreamFailure;
import org.jctools.queues.SpscArrayQueue;

/**
 * The subscriber a {@link PublisherSource} hands its publisher, one per run. The publisher's signals
 * (serial, by rule 1.3, though maybe from several threads) land in a single-producer queue that
 * never holds more than the items requested; the source's node thread drains it into the flow and
 * is the only thread that calls {@code request} and {@code cancel} (rule 2.7).
 */
final class PublisherInlet<T> implements Flow.Subscriber<T> {
    /** Marks a subscription the source gave up (closed): a late {@code onSubscribe} is cancelled at once. */
    private static final Flow.Subscription GONE = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private final int prefetch;
    /** How many items taken before more are requested (three quarters of the prefetch). */
    private final int replenish;
    private final SpscArrayQueue<T> queue;
    private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
    private final Doorbell bell = new Doorbell();
    /**
     * Items requested so far, in total: written by the source's thread before each {@code request},
     * so a publisher answering that request sees it (its own hand-over orders the two).
     */
    private volatile long requested;
    /**
     * Items received so far, in total: written only by the publisher's signals, which are serial
     * (rule 1.3). Compared with {@link #requested} because the queue's fullness measures nothing:
     * its capacity is rounded up to a power of two, and the source frees slots before it asks again.
     */
    private long received;
    private volatile boolean done;
    /**
     * The publisher ended the subscription (onComplete or onError): only then is it not cancelled at
     * the end. A broken rule sets {@link #done} too, but the publisher may go on, so it is cancelled
     * (rule 2.6).
     */
    private volatile boolean terminated;
    /** The publisher's onError: ends the stream after the items delivered before it. */
    private volatile Throwable error;
    /** The publisher broke the specification: fails the flow at once, items or not. */
    private volatile IllegalStateException violation;
    private final BooleanSupplier subscribed = () -> subscription.get() != null || done;
    private final BooleanSupplier readable;

    PublisherInlet(int prefetch) {
        this.prefetch = prefetch;
        this.replenish = Math.max(1, prefetch - (prefetch >> 2));
        this.queue = new SpscArrayQueue<>(Math.max(prefetch, 2));
        this.readable = () -> !queue.isEmpty() || done;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        Objects.requireNonNull(s, "subscription (rule 2.13)");
        if (!subscription.compareAndSet(null, s)) {
            s.cancel(); // a second subscription (rule 2.5), or the source has already closed
            return;
        }
        bell.ring();
    }

    @Override
    public void onNext(T item) {
        Objects.requireNonNull(item, "item (rule 2.13)");
        if (done) {
            return;
        }
        if (++received > requested || !queue.offer(item)) {
            violation = new IllegalStateException("the publisher sent more items than requested (rule 1.1)");
            done = true;
        }
        bell.ring();
    }

    @Override
    public void onError(Throwable t) {
        Objects.requireNonNull(t, "throwable (rule 2.13)");
        error = t;
        terminated = true;
        done = true;
        bell.ring();
    }

    @Override
    public void onComplete() {
        terminated = true;
        done = true;
        bell.ring();
    }

    /**
     * Runs on the source's node thread: requests, forwards every item, and returns at the
     * publisher's completion or once the flow is cancelled. The publisher's error is a terminal
     * signal after its items (rule 1.7 orders them): every item it delivered before is sent first,
     * then the error ends the stream as a {@link StreamFailure}, which lets those items reach the
     * flow's end before the flow fails. A broken rule fails the flow at once.
     */
    void drain(Outbox<T> out, NodeContext context) throws Exception {
        while (!subscribed.getAsBoolean()) {
            if (context.isCancelled()) {
                return;
            }
            bell.await(subscribed);
        }
        Flow.Subscription s = subscription.get();
        if (s == GONE) {
            return;
        }
        if (s != null && !done) {
            requested = prefetch;
            s.request(prefetch);
        }
        int taken = 0;
        while (true) {
            IllegalStateException v = violation;
            if (v != null) {
                throw v;
            }
            T item = queue.poll();
            if (item != null) {
                out.send(item);
                if (++taken == replenish) {
                    taken = 0;
                    if (!done) {
                        requested += replenish;   // only this thread writes it
                        s.request(replenish);
                    }
                }
            } else if (done) {
                // done is written after the last item was queued: empty now means empty for good
                if (queue.isEmpty()) {
                    Throwable e = error;
                    if (e != null) {
                        throw new StreamFailure(e);
                    }
                    return;
                }
            } else if (context.isCancelled()) {
                return;
            } else {
                bell.await(readable);
            }
        }
    }

    /**
     * Gives the subscription up (the flow ended, normally or not): cancels it unless the publisher
     * ended it (rule 2.6); a later onSubscribe is cancelled.
     */
    void cancel() {
        Flow.Subscription s = subscription.getAndSet(GONE);
        if (s != null && s != GONE && !terminated) {
            s.cancel();
        }
        queue.clear();
    }
}
