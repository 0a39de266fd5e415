package org.bbflow.core.reactive;

import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.bbflow.core.Block;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.Pipeline;

/**
 * One subscriber's subscription to a {@link FlowPublisher}: its demand, its flow, and the one place
 * that sends terminal signals (after the flow's threads have ended, or before the flow started).
 */
final class FlowSubscription<T> implements Flow.Subscription {
    private final AtomicLong demand = new AtomicLong();
    final Doorbell bell = new Doorbell();
    /** Cleared at the terminal signal or at cancel, so a cancelled subscriber can be collected (rule 3.13). */
    private volatile Flow.Subscriber<? super T> subscriber;
    private volatile boolean cancelled;
    /** A {@code request(n <= 0)}: signalled as onError instead of the flow's own outcome (rule 3.9). */
    private volatile Throwable refusal;
    private volatile org.bbflow.core.Flow flow;
    final BooleanSupplier demanded = () -> demand.get() > 0 || cancelled;

    FlowSubscription(Flow.Subscriber<? super T> subscriber) {
        this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
        if (cancelled) {
            return; // rule 3.6
        }
        if (n <= 0) {
            refusal = new IllegalArgumentException("rule 3.9: request(" + n + "): demand must be positive");
            stop();
            return;
        }
        long d;
        long next;
        do {
            d = demand.get();
            if (d == Long.MAX_VALUE) {
                return;
            }
            next = d + n;
            if (next < 0) {
                next = Long.MAX_VALUE; // rule 3.17: unbounded
            }
        } while (!demand.compareAndSet(d, next));
        bell.ring();
    }

    @Override
    public void cancel() {
        stop();
        if (refusal == null) {
            subscriber = null;
        }
    }

    private void stop() {
        cancelled = true;
        org.bbflow.core.Flow f = flow;
        if (f != null) {
            f.cancel();
        }
        bell.ring();
    }

    /** Called once onSubscribe has returned: starts the subscriber's flow unless it was already refused. */
    void start(Supplier<? extends Block<Void, ? extends T>> blocks, FlowOptions options) {
        if (cancelled) {
            if (refusal != null) {
                terminate(refusal);
            }
            return;
        }
        org.bbflow.core.Flow f;
        try {
            Block<Void, ? extends T> block = Objects.requireNonNull(blocks.get(), "the publisher's block supplier returned null");
            f = org.bbflow.core.Flow.start(Pipeline.of(block, new SubscriberSink<>(this)), options);
        } catch (RuntimeException | Error e) {
            terminate(e);
            return;
        }
        flow = f;
        if (cancelled) {
            f.cancel(); // cancelled or refused while the flow started
        }
        f.completion().whenComplete((stats, failure) -> terminate(failure));
    }

    /** Takes one unit of demand, waiting for it; false if the subscription or the flow ended meanwhile. */
    boolean awaitDemand(org.bbflow.core.NodeContext context) {
        while (true) {
            if (cancelled || context.isCancelled()) {
                return false;
            }
            long d = demand.get();
            if (d == Long.MAX_VALUE) {
                return true;
            }
            if (d > 0) {
                if (demand.compareAndSet(d, d - 1)) {
                    return true;
                }
                continue;
            }
            bell.await(demanded);
        }
    }

    /** Hands an item on; only from the flow's last node, after {@link #awaitDemand}. */
    void deliver(T item) {
        Flow.Subscriber<? super T> s = subscriber;
        if (s != null && !cancelled) {
            s.onNext(item);
        }
    }

    /** The one terminal signal: onError(refusal), nothing after a cancel, else the flow's outcome. */
    private void terminate(Throwable failure) {
        Flow.Subscriber<? super T> s = subscriber;
        subscriber = null;
        flow = null;
        if (s == null) {
            return;
        }
        Throwable refused = refusal;
        if (refused != null) {
            s.onError(refused);
        } else if (cancelled) {
            return;
        } else if (failure == null) {
            cancelled = true;
            s.onComplete();
        } else {
            cancelled = true;
            s.onError(failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure);
        }
    }
}
