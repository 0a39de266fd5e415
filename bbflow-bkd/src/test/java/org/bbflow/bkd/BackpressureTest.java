package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackpressureTest {

    /** With merges stalled, an inserter blocks on the bounded backlog instead of piling up trees. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void insertersWaitWhenMergesFallBehind(boolean plainThreads) throws Exception {
        int total = 20_000;
        try (BkdTree tree = BkdTree.builder(2).bufferSize(10).leafSize(4).mergeFactor(2).mergeBacklog(2)
                .plainThreadMerges(plainThreads).build()) {
            CountDownLatch release = new CountDownLatch(1);
            tree.merger.beforeMerge = () -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            AtomicLong inserted = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread inserter = new Thread(() -> {
                try {
                    for (int i = 0; i < total; i++) {
                        tree.insert(new double[] {i % 100, i / 100}, i);
                        inserted.incrementAndGet();
                    }
                    tree.refresh();
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            inserter.start();
            while (inserter.getState() != Thread.State.WAITING && inserter.getState() != Thread.State.TIMED_WAITING) {
                assertTrue(inserter.isAlive(), "inserter finished although merges were stalled");
                Thread.onSpinWait();
            }
            assertTrue(inserted.get() < total, "inserter is held back: " + inserted.get());
            int trees = tree.stats().trees();
            assertTrue(trees < 40, "unmerged trees stay bounded: " + trees + " " + tree.stats());
            release.countDown();
            inserter.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            tree.awaitMerges();
            assertEquals(total, tree.count(Box.all(2)));
        }
    }
}
