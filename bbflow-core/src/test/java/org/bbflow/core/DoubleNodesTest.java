package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.bbflow.testing.TestSeed;

/**
 * The unboxed double stages: every value once, in order and bit for bit against {@link DoubleStream}
 * as the sequential model (NaN, infinities and -0.0 included), the crossings to and from longs and
 * boxed stages, batches never changed once sent, the adapters' flushing, and failures.
 */
@Timeout(120)
class DoubleNodesTest {

    static List<WaitStrategy> strategies() {
        return List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());
    }

    /** A sink gathering every value in order (one thread calls it). */
    private static final class Values {
        double[] a = new double[16];
        int n;

        void add(double x) {
            if (n == a.length) {
                a = Arrays.copyOf(a, 2 * n);
            }
            a[n++] = x;
        }

        double[] get() {
            return Arrays.copyOf(a, n);
        }
    }

    /** Values whose bits a lossy path would change: specials, signed zeros, subnormals, fractions. */
    private static double value(long i) {
        switch ((int) Math.floorMod(i, 11)) {
            case 0: return Double.NaN;
            case 1: return -0.0;
            case 2: return Double.POSITIVE_INFINITY;
            case 3: return Double.MIN_VALUE * i;
            case 4: return -1.0 / i;
            default: return i * 0.1;
        }
    }

    /** Bit-for-bit equality, so that -0.0 and NaN are compared as values. */
    private static void assertSameBits(double[] expected, double[] got, String context) {
        assertEquals(expected.length, got.length, context + ": count");
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(got[i])) {
                throw new AssertionError(context + ": value " + i + " is " + got[i] + ", expected " + expected[i]);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aPipelineOfDoubleStagesMatchesTheSequentialStream(WaitStrategy ws) {
        long seed = TestSeed.current();
        Random r = new Random(seed);
        for (int rep = 0; rep < 5; rep++) {
            long n = 1 + r.nextInt(300_000);
            int batch = 1 + r.nextInt(600);
            double scale = 1 + r.nextInt(5);
            Values got = new Values();
            Runs.run(Pipeline.of(LongNodes.range(-7, n, batch), DoubleNodes.fromLongs(DoubleNodesTest::value),
                    DoubleNodes.map(x -> x * scale), DoubleNodes.filter(x -> !(x > 100 && x < 200)),
                    DoubleNodes.flatMap((out, x) -> {
                        out.sendDouble(x);
                        if (x < 0) {
                            out.sendDouble(-x);
                        }
                    }), DoubleNodes.sink(got::add)), FlowOptions.defaults().withWaitStrategy(ws));
            double[] expected = LongStream.rangeClosed(-7, n).mapToDouble(DoubleNodesTest::value).map(x -> x * scale)
                    .filter(x -> !(x > 100 && x < 200))
                    .flatMap(x -> x < 0 ? DoubleStream.of(x, -x) : DoubleStream.of(x)).toArray();
            assertSameBits(expected, got.get(), "seed " + seed + " rep " + rep + ": n " + n + ", batch " + batch);
        }
    }

    @Test
    void aSourceAndTheWayBackToLongsKeepEveryValue() {
        long[] got = new long[5_001];
        int[] count = {0};
        Runs.run(Pipeline.of(DoubleNodes.source(out -> {
            for (int i = 0; i <= 5_000; i++) {
                out.sendDouble(i / 4.0);
            }
        }), DoubleNodes.toLongs(x -> (long) Math.floor(x)), LongNodes.sink(x -> got[count[0]++] = x)));
        assertEquals(5_001, count[0]);
        assertArrayEquals(LongStream.rangeClosed(0, 5_000).map(i -> i / 4).toArray(), got);
    }

    @Test
    void batchesHoldAtMostTheirSizeAndTheStatisticsCountThem() {
        List<Integer> sizes = new ArrayList<>();
        RunStats stats = Runs.run(Pipeline.of(DoubleNodes.source(out -> {
            for (int i = 0; i < 1000; i++) {
                out.sendDouble(i);
            }
        }), Nodes.sink((DoubleBatch b) -> sizes.add(b.size()))));
        assertEquals(List.of(256, 256, 256, 232), sizes);
        assertEquals(4, stats.node("doubles.source[0]").itemsOut());
        assertEquals(4, stats.node("sink[1]").itemsIn());
    }

    /** A batch broadcast to two workers is read by both: stages make new batches instead of changing theirs. */
    @Test
    void aBroadcastBatchIsNeverChangedByTheStagesThatReadIt() {
        for (int rep = 0; rep < 20; rep++) {
            Runs.Collector<DoubleBatch> out = new Runs.Collector<>();
            Farm<DoubleBatch, DoubleBatch> farm = Farm.<DoubleBatch, DoubleBatch>of(List.of(
                    DoubleNodes.map(x -> x * 10), DoubleNodes.map(x -> x * 10 + 1))).dispatch(Dispatch.broadcast());
            Runs.run(Pipeline.of(LongNodes.range(1, 5_000), DoubleNodes.fromLongs(i -> i), farm, out.sink()));
            double sum = 0;
            long count = 0;
            for (DoubleBatch b : out.get()) {
                for (int i = 0; i < b.size(); i++) {
                    sum += b.get(i);
                    count++;
                }
            }
            assertEquals(10_000, count, "rep " + rep);
            double s = 5_000.0 * 5_001 / 2;
            assertEquals(10 * s + 10 * s + 5_000, sum, "rep " + rep + ": a worker read a batch the other had changed");
        }
    }

    @Test
    void anOrderedFarmOfDoubleWorkersKeepsEveryValueInOrder() {
        Values got = new Values();
        Runs.run(Pipeline.of(LongNodes.range(1, 200_000, 100), DoubleNodes.fromLongs(i -> i / 8.0),
                Farm.of(2, () -> DoubleNodes.map(Math::sqrt)).ordered(), DoubleNodes.sink(got::add)));
        assertSameBits(LongStream.rangeClosed(1, 200_000).mapToDouble(i -> Math.sqrt(i / 8.0)).toArray(), got.get(),
                "ordered farm");
    }

    /**
     * {@code unbatch} sends every value as a Double, {@code batch} gathers them back and sends what it
     * has whenever nothing waits on its input: in the lockstep below (a value only once the sink has
     * seen the one before) a {@code batch} that waited for a full batch would never send the first.
     */
    @Test
    void theAdaptersKeepEveryValueAndBatchDoesNotWaitForAFullBatch() throws Exception {
        Values got = new Values();
        Runs.run(Pipeline.of(LongNodes.range(1, 10_000), DoubleNodes.fromLongs(i -> i * 0.5), DoubleNodes.unbatch(),
                Nodes.map((Double x) -> x + 1), DoubleNodes.batch(), DoubleNodes.sink(got::add)));
        assertSameBits(LongStream.rangeClosed(1, 10_000).mapToDouble(i -> i * 0.5 + 1).toArray(), got.get(), "adapters");

        BlockingQueue<Double> seen = new ArrayBlockingQueue<>(16);
        Source<Double> lockstep = Nodes.source(out -> {
            for (int i = 1; i <= 20; i++) {
                out.send(i * 1.5);
                Double back = seen.poll(30, TimeUnit.SECONDS);
                assertNotNull(back, "value " + i + " did not reach the sink: batch() waited for a full batch");
                assertEquals(i * 1.5, back);
            }
        });
        Runs.run(Pipeline.of(lockstep, DoubleNodes.batch(), DoubleNodes.sink(seen::add)));
    }

    /** A source's flush() sends what it has at once. */
    @Test
    void aSourceThatFlushesDoesNotWaitForAFullBatch() {
        BlockingQueue<Double> seen = new ArrayBlockingQueue<>(16);
        Runs.run(Pipeline.of(DoubleNodes.source(out -> {
            for (int i = 1; i <= 20; i++) {
                out.sendDouble(i);
                out.flush();
                try {
                    Double back = seen.poll(30, TimeUnit.SECONDS);
                    assertNotNull(back, "value " + i + " did not reach the sink after flush()");
                    assertEquals(i, back);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            out.sendDouble(21); // left in the batch: sent when the generator returns
        }), DoubleNodes.sink(seen::add)));
        assertEquals(List.of(21.0), new ArrayList<>(seen));
    }

    @Test
    void aFailingStageFailsTheFlowWithItsException() {
        FlowException e = assertThrows(FlowException.class, () -> Runs.run(Pipeline.of(LongNodes.range(1, 100_000),
                DoubleNodes.fromLongs(i -> i), DoubleNodes.map(x -> {
                    if (x == 70_000) {
                        throw new ArithmeticException("boom at " + x);
                    }
                    return x;
                }), DoubleNodes.sink(x -> { }))));
        assertTrue(e.getCause() instanceof ArithmeticException && e.getCause().getMessage().equals("boom at 70000.0"),
                () -> String.valueOf(e.getCause()));
    }

    @Test
    void aBatchIsReadOnlyChecksItsBoundsAndRefusesBadArguments() {
        DoubleBatch b = DoubleBatch.of(4.5, -0.0, 6);
        assertEquals(3, b.size());
        assertEquals(-0.0, b.get(1));
        assertArrayEquals(new double[] {4.5, -0.0, 6}, b.toArray());
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(3));
        assertThrows(IndexOutOfBoundsException.class, () -> b.get(-1));
        double[] sum = {0};
        b.forEach(x -> sum[0] += x);
        assertEquals(10.5, sum[0]);
        assertEquals("DoubleBatch[4.5, -0.0, 6.0]", b.toString());
        assertThrows(NullPointerException.class, () -> DoubleNodes.map(null));
        assertThrows(NullPointerException.class, () -> DoubleNodes.fromLongs(null));
        assertThrows(NullPointerException.class, () -> DoubleBatch.of((double[]) null));
    }
}
