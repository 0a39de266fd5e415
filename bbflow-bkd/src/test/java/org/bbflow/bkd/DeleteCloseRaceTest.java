package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delete racing close() of a persistent index is in the commit of close() or fails with
 * IllegalStateException. Before, a delete that had passed its open check when close() began, and
 * took its number after close() had committed, returned normally and was lost: the reopened index
 * still held the point.
 */
class DeleteCloseRaceTest {
    private static final double[] P = {1, 2};

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aDeleteThatCloseDidNotCommitFails(@TempDir Path dir) throws Exception {
        BkdTree t = BkdTree.builder(2).directory(dir).build();
        t.insert(P, 7);
        t.commit();
        CountDownLatch checked = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        t.deleteHook = () -> {
            checked.countDown();
            try {
                closed.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread deleter = new Thread(() -> {
            try {
                t.delete(P, 7);
                outcome.set(new AssertionError("the delete returned normally"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        deleter.start();
        assertTrue(checked.await(10, TimeUnit.SECONDS));
        t.close();                  // commits while the delete waits between its open check and its number
        closed.countDown();
        deleter.join(10_000);
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(1, again.count(Box.all(2)), "close() committed the point without the delete");
        }
        Throwable e = outcome.get();
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("not in the commit of close()"),
                "the delete that close() did not commit must fail, got " + e);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aDeleteThatReturnsBeforeCloseIsCommitted(@TempDir Path dir) throws Exception {
        BkdTree t = BkdTree.builder(2).directory(dir).build();
        t.insert(P, 7);
        t.commit();
        t.delete(P, 7);
        t.close();
        try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
            assertEquals(0, again.count(Box.all(2)));
        }
    }
}
