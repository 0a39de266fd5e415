package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * stats() reports the heap the index really holds: pooled arrays and insert buffers included;
 * the pool is bounded by the merge factor and emptied once ingest stops; an idle writer holds no
 * buffer; an index left by streaming ingest merges into one tree once inserts pause.
 */
@Timeout(120)
class FootprintTest {

    /** Polls {@code done} every 10 ms until it holds or the deadline passes (the deadline fails the test). */
    private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
            Thread.sleep(10);
        }
    }

    @Test
    void statsCountPoolAndBuffersAndThePoolEmptiesOnceIngestStops() throws Exception {
        int buffer = 4096;
        try (BkdTree t = BkdTree.builder(2).bufferSize(buffer).mergeFactor(4).mergeWhenIdle(Duration.ZERO).build()) {
            Random r = new Random(3);
            for (int i = 0; i < 40 * buffer + 100; i++) {
                t.insert(new double[] {r.nextDouble(), r.nextDouble()}, i);
            }
            BkdStats s = t.stats();
            long bufferSet = 16L + 8L * 2 * buffer + 2 * (16L + 8L * buffer);
            assertEquals(bufferSet, s.bufferBytes(), "the inserting thread's buffer holds 100 points: " + s);
            assertEquals(s.treeBytes() + s.pooledBytes() + s.bufferBytes() + s.tombstoneBytes(), s.heapBytes());
            assertEquals((double) s.heapBytes() / s.points(), s.bytesPerPoint(), 1e-9);
            assertTrue(s.pooledBytes() <= 5 * bufferSet, "the pool keeps at most mergeFactor + 1 arrays per length: " + s);
            t.refresh();
            assertEquals(0, t.stats().bufferBytes(), "a flushed buffer gives its arrays back");
            t.awaitMerges();
            await("the pool is emptied after a second without inserts", () -> t.stats().pooledBytes() == 0);
            s = t.stats();
            assertEquals(s.treeBytes() + s.tombstoneBytes(), s.heapBytes(), s.toString());
            assertTrue(s.treeBytesPerPoint() < 20, "2-D points with 3-byte ids: " + s.treeBytesPerPoint());
        }
    }

    @Test
    void anIndexLeftByStreamingIngestMergesIntoOneTreeOncePaused() throws Exception {
        try (BkdTree t = BkdTree.builder(2).bufferSize(1000).mergeFactor(4).mergeWhenIdle(Duration.ofMillis(200)).build();
             BkdTree never = BkdTree.builder(2).bufferSize(1000).mergeFactor(4).mergeWhenIdle(Duration.ZERO).build()) {
            Random r = new Random(4);
            for (int i = 0; i < 23_500; i++) {
                double[] p = {r.nextDouble(), r.nextDouble()};
                t.insert(p, i);
                never.insert(p, i);
            }
            t.refresh();
            never.refresh();
            t.awaitMerges();
            never.awaitMerges();
            await("one tree after the pause", () -> t.stats().trees() == 1);
            assertEquals(23_500, t.count(Box.all(2)));
            assertTrue(never.stats().trees() > 1, "without the idle merge the tiers stay: " + never.stats());
            long trees = never.stats().trees();
            Thread.sleep(400);
            assertEquals(trees, never.stats().trees(), "mergeWhenIdle(ZERO) never merges on idle");
        }
    }
}
