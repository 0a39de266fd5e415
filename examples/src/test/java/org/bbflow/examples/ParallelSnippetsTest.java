package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.core.par.Accelerator;
import org.bbflow.core.par.DivideAndConquer;
import org.bbflow.core.par.MapNode;
import org.bbflow.core.par.ParallelFor;
import org.bbflow.core.par.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Java examples of docs/parallel.md (see ReadmeSnippetsTest for how they are matched), run. */
class ParallelSnippetsTest {

    static double f(long i) {
        return Math.sqrt(i);
    }

    static long heavy(long x) {
        long y = x;
        for (int i = 0; i < 1000; i++) {
            y = y * 31 + i;
        }
        return y;
    }

    static long seqFib(int n) {
        return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    @Test
    @Timeout(60)
    void readmeParallel() {
        int n = 100_000;
        // tag::readme-parallel[]
        double[] a = new double[n];
        double sum;
        try (ParallelFor pf = ParallelFor.create(4)) {                  // a pool kept between calls: this thread and 3 more
            pf.parallelFor(0, n, 1, Schedule.dynamic(1024), i -> a[(int) i] = f(i));   // chunks of 1,024 to whoever is free
            sum = pf.parallelReduceDouble(0, n, 0.0, (acc, i) -> acc + a[(int) i], Double::sum);   // unboxed reduction
        }                                                                // close: the pool's threads end
        // end::readme-parallel[]
        double expected = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(f(i), a[i]);
            expected += f(i);
        }
        assertEquals(expected, sum, 1e-6 * expected);
    }

    @Test
    @Timeout(60)
    void parallelFor() {
        int n = 1_000_000;
        // tag::parallel-for[]
        double[] a = new double[n];
        try (ParallelFor pf = ParallelFor.create(4)) {                  // 4 workers: this thread and 3 more
            pf.parallelFor(0, n, i -> a[(int) i] = f(i));                 // static blocks
            pf.parallelForInt(0, n, 1, Schedule.dynamic(1024), i -> a[i] += 1);   // dynamic chunks of 1,024
            pf.parallelFor(n - 1, -1, -2, Schedule.staticChunks(256).onWorkers(2),
                    i -> a[(int) i] *= 2);                                 // odd indices, counting down, on 2 workers
            double[] perWorker = new double[pf.parallelism()];
            pf.parallelForWorker(0, n, 1, Schedule.dynamic(4096),
                    (i, worker) -> perWorker[worker] += a[(int) i]);       // per-worker state, no locking
        }
        // end::parallel-for[]
        for (int i = 0; i < n; i += 9973) {
            assertEquals((f(i) + 1) * (i % 2 == 1 ? 2 : 1), a[i]);
        }
    }

    @Test
    @Timeout(60)
    void reductions() {
        int n = 100_000;
        long[] v = new Random(1).longs(n).toArray();
        try (ParallelFor pf = ParallelFor.create(2)) {
            // tag::reductions[]
            long sum = pf.parallelReduceLong(0, v.length, 0L, (acc, i) -> acc + v[(int) i], Long::sum);
            double norm = Math.sqrt(pf.parallelReduceDouble(0, v.length, 1, Schedule.dynamic(2048), 0.0,
                    (acc, i) -> acc + (double) v[(int) i] * v[(int) i], Double::sum));
            String csv = pf.parallelReduce(0, 10, 1, Schedule.staticBlocks(), "",
                    (acc, i) -> acc + i + ",", String::concat);          // "0,1,...,9,": static blocks keep the order
            // end::reductions[]
            long expected = 0;
            for (long x : v) {
                expected += x;
            }
            assertEquals(expected, sum);
            assertEquals("0,1,2,3,4,5,6,7,8,9,", csv);
            double squares = 0;
            for (long x : v) {
                squares += (double) x * x;
            }
            assertEquals(Math.sqrt(squares), norm, Math.sqrt(squares) * 1e-12); // the sum's order differs from the loop's
        }
    }

    @Test
    @Timeout(60)
    void mapNode() {
        List<double[]> images = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            images.add(new Random(k).doubles(10_000).toArray());
        }
        // tag::map-node[]
        List<double[]> smoothed = new ArrayList<>();
        Pipeline.of(
                Nodes.fromIterable(images),
                Farm.of(2, () -> MapNode.of(2, (double[] img, ParallelFor pf) -> {   // each worker: a pool of 2
                    double[] out = new double[img.length];
                    pf.parallelForInt(1, img.length - 1,
                            i -> out[i] = (img[i - 1] + img[i] + img[i + 1]) / 3);
                    return out;
                })).ordered(),
                Nodes.sink((double[] img) -> smoothed.add(img))).run();
        // end::map-node[]
        assertEquals(8, smoothed.size());
        double[] first = images.get(0);
        assertEquals((first[0] + first[1] + first[2]) / 3, smoothed.get(0)[1]);
    }

    /** A range of an array, for the sort. */
    record Part(int lo, int hi) {
    }

    @Test
    @Timeout(60)
    void divideAndConquer() {
        int[] data = new Random(3).ints(200_000).toArray();
        int[] sorted = data.clone();
        Arrays.sort(sorted);
        try (ParallelFor pool = ParallelFor.create(2)) {
            // tag::divide-and-conquer[]
            DivideAndConquer<Integer, Long> fib = DivideAndConquer.<Integer, Long>of(
                    n -> List.of(n - 1, n - 2),          // divide
                    rs -> rs.get(0) + rs.get(1),          // combine
                    n -> seqFib(n),                       // base case: the sequential function
                    n -> n < 20);                         // condition: base case below 20
            long f = fib.solve(pool, 35);

            int[] a = data;
            int[] tmp = new int[a.length];
            DivideAndConquer<Part, Part> mergesort = DivideAndConquer.<Part, Part>of(
                    p -> List.of(new Part(p.lo(), (p.lo() + p.hi()) >>> 1), new Part((p.lo() + p.hi()) >>> 1, p.hi())),
                    rs -> merge(a, tmp, rs.get(0), rs.get(1)),
                    p -> { Arrays.sort(a, p.lo(), p.hi()); return p; },
                    p -> p.hi() - p.lo() <= 8192);
            mergesort.solve(pool, new Part(0, a.length));
            // end::divide-and-conquer[]
            assertEquals(seqFib(35), f);
            assertArrayEquals(sorted, a);
        }
    }

    static Part merge(int[] a, int[] tmp, Part x, Part y) {
        System.arraycopy(a, x.lo(), tmp, x.lo(), y.hi() - x.lo());
        int i = x.lo();
        int j = y.lo();
        for (int k = x.lo(); k < y.hi(); k++) {
            a[k] = i < x.hi() && (j >= y.hi() || tmp[i] <= tmp[j]) ? tmp[i++] : tmp[j++];
        }
        return new Part(x.lo(), y.hi());
    }

    @Test
    @Timeout(60)
    void accelerator() {
        long[] total = new long[1];
        int n = 10_000;
        // tag::accelerator[]
        try (Accelerator<Long, Long> acc = Accelerator.<Long, Long>builder(2, () -> Nodes.map((Long x) -> heavy(x)))
                .ordered()                                    // results in offload order
                .start()) {                                   // threads start once, here
            for (int burst = 0; burst < 3; burst++) {
                for (long i = 0; i < n; i++) {
                    acc.offload(i);                           // from this thread
                }
                acc.endBurst();
                for (Long r; (r = acc.takeResult()) != null; ) {   // null: the burst's end
                    total[0] += r;
                }
                acc.waitFreezing();                           // threads parked, kept for the next burst
            }
        }                                                     // close: threads end
        // end::accelerator[]
        long expected = 0;
        for (long i = 0; i < n; i++) {
            expected += heavy(i);
        }
        assertEquals(3 * expected, total[0]);
    }
}
