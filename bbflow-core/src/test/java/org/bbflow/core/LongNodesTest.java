package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.bbflow.testing.TestSeed;

/**
 * The unboxed long stages: every value once and in order against {@link LongStream} as the
 * sequential model, the range's edges, batches never changed once sent, the adapters' flushing, and
 * failures.
 */
@Timeout(120)
class LongNodesTest {

    static List<WaitStrategy> strategies() {
        return List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
    }

    /** A sink gathering every value in order (one thread calls it). */
    private static final class Values {
        long[] a = new long[16];
        int n;

        void add(long x) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, 2 * n);
            }
            a[n++] = x;
        }

        long[] get() {
            return java.util.Arrays.copyOf(a, n);
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aPipelineOfLongStagesMatchesTheSequentialStream(WaitStrategy ws) {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        for (int rep = 0; rep < 5; rep++) {
            long n = 1 + r.nextInt(300_000);
            int batch = 1 + r.nextInt(600);
            long mod = 2 + r.nextInt(5);
            Values got = new Values();
            Runs.run(Pipeline.of(LongNodes.range(-7, n, batch), LongNodes.map(x -> 3 * x + 1),
                    LongNodes.filter(x -> x % mod != 0), LongNodes.flatMap((out, x) -> {
                        out.sendLong(x);
                        if (x % 7 == 0) {
                            out.sendLong(-x);
                        }
                    }), LongNodes.sink(got::add)), FlowOptions.defaults().withWaitStrategy(ws));
            long[] expected = LongStream.rangeClosed(-7, n).map(x -> 3 * x + 1).filter(x -> x % mod != 0)
                    .flatMap(x -> x % 7 == 0 ? LongStream.of(x, -x) : LongStream.of(x)).toArray();
            assertArrayEquals(expected, got.get(), "seed " + seed + " rep " + rep + ": n " + n + ", batch " + batch);
        }
    }

    @Test
    void theRangeReachesItsEndsWithoutOverflow() {
        assertArrayEquals(new long[0], collect(LongNodes.range(5, 4)));
        assertArrayEquals(new long[] {5}, collect(LongNodes.range(5, 5)));
        assertArrayEquals(LongStream.rangeClosed(Long.MAX_VALUE - 600, Long.MAX_VALUE).toArray(),
                collect(LongNodes.range(Long.MAX_VALUE - 600, Long.MAX_VALUE)));
        assertArrayEquals(LongStream.rangeClosed(Long.MAX_VALUE - 511, Long.MAX_VALUE).toArray(),
                collect(LongNodes.range(Long.MAX_VALUE - 511, Long.MAX_VALUE))); // exactly two batches
        assertArrayEquals(LongStream.rangeClosed(Long.MIN_VALUE, Long.MIN_VALUE + 300).toArray(),
                collect(LongNodes.range(Long.MIN_VALUE, Long.MIN_VALUE + 300, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LongNodes.range(1, 2, 0));
        assertTrue(e.getMessage().contains("at least 1 value"), e::getMessage);
    }

    @Test
    void batchesHoldAtMostTheirSizeAndTheStatisticsCountThem() {
        List<Integer> sizes = new ArrayList<>();
        RunStats stats = Runs.run(Pipeline.of(LongNodes.range(1, 1000), Nodes.sink((LongBatch b) -> sizes.add(b.size()))));
        assertEquals(List.of(256, 256, 256, 232), sizes);
        assertEquals(4, stats.node("longs.range[0]").itemsOut());
        assertEquals(4, stats.node("sink[1]").itemsIn());
    }

    /**
     * A batch broadcast to two workers is read by both: stages make new batches instead of changing
     * the one they received (one worker's map would otherwise change the other's input).
     */
    @Test
    void aBroadcastBatchIsNeverChangedByTheStagesThatReadIt() {
        for (int rep = 0; rep < 20; rep++) {
            Runs.Collector<LongBatch> out = new Runs.Collector<>();
            Farm<LongBatch, LongBatch> farm = Farm.<LongBatch, LongBatch>of(List.of(LongNodes.map(x -> x * 10),
                    LongNodes.map(x -> x * 10 + 1))).dispatch(Dispatch.broadcast());
            Runs.run(Pipeline.of(LongNodes.range(1, 5_000), farm, out.sink()));
            long sum = 0;
            long count = 0;
            for (LongBatch b : out.get()) {
                for (int i = 0; i < b.size(); i++) {
                    sum += b.get(i);
                    count++;
                }
            }
            assertEquals(10_000, count, "rep " + rep);
            long s = 5_000L * 5_001 / 2;
            assertEquals(10 * s + 10 * s + 5_000, sum, "rep " + rep + ": a worker read a batch the other had changed");
        }
    }

    @Test
    void anOrderedFarmOfLongWorkersKeepsEveryValueInOrder() {
        Values got = new Values();
        Runs.run(Pipeline.of(LongNodes.range(1, 200_000, 100), Farm.of(2, () -> LongNodes.map(x -> x * 3)).ordered(),
                LongNodes.sink(got::add)));
        assertArrayEquals(LongStream.rangeClosed(1, 200_000).map(x -> x * 3).toArray(), got.get());
    }

    /**
     * Between boxed stages: {@code unbatch} sends every value as a Long, {@code batch} gathers them
     * back and sends what it has whenever nothing waits on its input. Here the producer sends a value
     * only once the sink has seen the one before: a {@code batch} that waited for a full batch would
     * never send the first one.
     */
    @Test
    void theAdaptersKeepEveryValueAndBatchDoesNotWaitForAFullBatch() throws Exception {
        Values got = new Values();
        Runs.run(Pipeline.of(LongNodes.range(1, 10_000), LongNodes.unbatch(), Nodes.map((Long x) -> x + 1),
                LongNodes.batch(), LongNodes.sink(got::add)));
        assertArrayEquals(LongStream.rangeClosed(2, 10_001).toArray(), got.get());

        BlockingQueue<Long> seen = new ArrayBlockingQueue<>(16);
        Source<Long> lockstep = Nodes.source(out -> {
            for (long i = 1; i <= 20; i++) {
                out.send(i);
                Long back = seen.poll(30, TimeUnit.SECONDS);
                assertNotNull(back, "value " + i + " did not reach the sink: batch() waited for a full batch");
                assertEquals(i, back);
            }
        });
        Runs.run(Pipeline.of(lockstep, LongNodes.batch(), LongNodes.sink(seen::add)));
    }

    /** A source's flush() sends what it has at once: the same lockstep through the unboxed source. */
    @Test
    void aSourceThatFlushesDoesNotWaitForAFullBatch() {
        BlockingQueue<Long> seen = new ArrayBlockingQueue<>(16);
        Runs.run(Pipeline.of(LongNodes.source(out -> {
            for (long i = 1; i <= 20; i++) {
                out.sendLong(i);
                out.flush();
                try {
                    Long back = seen.poll(30, TimeUnit.SECONDS);
                    assertNotNull(back, "value " + i + " did not reach the sink after flush()");
                    assertEquals(i, back);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            out.sendLong(21); // left in the batch: sent when the generator returns
        }), LongNodes.sink(seen::add)));
        assertEquals(List.of(21L), new ArrayList<>(seen));
    }

    @Test
    void aFailingStageFailsTheFlowWithItsException() {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(LongNodes.range(1, 100_000),
                LongNodes.map(x -> {
                    if (x == 70_000) {
                        throw new ArithmeticException("boom at " + x);
                    }
                    return x;
                }), LongNodes.sink(x -> { }))));
        assertTrue(e.getCause() instanceof ArithmeticException && e.getCause().getMessage().equals("boom at 70000"),
                () -> String.valueOf(e.getCause()));
    }

    @Test
    void aBatchIsReadOnlyAndChecksItsBounds() {
        LongBatch b = LongBatch.of(4, 5, 6);
        assertEquals(3, b.size());
        assertEquals(5, b.get(1));
        assertArrayEquals(new long[] {4, 5, 6}, b.toArray());
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(3));
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(-1));
        long[] sum = {0};
        b.forEach(x -> sum[0] += x);
        assertEquals(15, sum[0]);
        assertEquals("LongBatch[4, 5, 6]", b.toString());
    }

    private static long[] collect(Source<LongBatch> source) {
        Values got = new Values();
        Runs.run(Pipeline.of(source, LongNodes.sink(got::add)));
        return got.get();
    }
}
