package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a failure elsewhere does to a node that already ended, and what happens to a second failure. */
@Timeout(60)
class CancelCloseTest {

    @Test
    void aFailureDoesNotInterruptCloseOfANodeThatEndedNormally() {
        CountDownLatch sourceInClose = new CountDownLatch(1);
        CountDownLatch failerClosed = new CountDownLatch(1);
        AtomicBoolean interruptedInClose = new AtomicBoolean();
        AtomicReference<Boolean> closeCompleted = new AtomicReference<>();
        RuntimeException boom = new IllegalStateException("boom");

        // The source ends normally and, in close(), waits for the failing node to have failed and closed.
        Source<Long> source = new Source<>() {
            @Override
            public void generate(Outbox<Long> out) {
                out.send(1L);
            }

            @Override
            public void close() {
                sourceInClose.countDown();
                try {
                    closeCompleted.set(failerClosed.await(20, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    interruptedInClose.set(true);
                }
            }
        };
        // Fails only once the source is inside close(); the flow's cancellation happens before its own close().
        Node<Long, Long> failer = new Node<>() {
            @Override
            public void onItem(Long item, Outbox<Long> out) throws Exception {
                assertTrue(sourceInClose.await(20, TimeUnit.SECONDS));
                throw boom;
            }

            @Override
            public void close() {
                failerClosed.countDown();
            }
        };
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(source, failer, Nodes.sink(x -> { }))));
        assertSame(boom, e.getCause());
        assertFalse(interruptedInClose.get(), "close() of a node that had ended normally was interrupted");
        assertEquals(Boolean.TRUE, closeCompleted.get());
    }

    @Test
    void aSecondFailureIsKeptAsSuppressed() {
        RuntimeException first = new IllegalStateException("first");
        RuntimeException second = new IllegalStateException("second, in close");
        Node<Long, Long> failer = Nodes.map((Long x) -> {
            throw first;
        });
        Node<Long, Void> sink = new Node<>() {
            @Override
            public void onItem(Long item, Outbox<Void> out) {
            }

            @Override
            public void close() {
                throw second;
            }
        };
        FlowException e = assertThrows(FlowException.class,
                () -> Runs.run(Pipeline.of(Nodes.range(1, 10), failer, sink)));
        assertSame(first, e.getCause());
        assertEquals(List.of(second), List.of(first.getSuppressed()));
    }
}
