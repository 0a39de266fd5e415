import java.util.Arrays;
import org.jctools.queues.SpscArrayQueue;

/**
 * The two raw floors of the unboxed two-stage pipeline outside JMH, many runs in one process:
 * batches of 256 longs over a JCTools SpscArrayQueue of 1024, either a new array each ("alloc") or
 * an array the consumer gave back on a second queue where there is one ("reuse"), both threads
 * yielding on failure. Prints the first run and the median and minimum of the last two thirds.
 * Usage: java -cp jctools-core.jar:. RawFloors alloc|reuse N RUNS
 */
public class RawFloors {
    static final int BATCH = 256;
    static final int CAPACITY = 1024;

    public static void main(String[] args) throws Exception {
        boolean reuse = args[0].equals("reuse");
        long n = Long.parseLong(args[1]);
        int runs = Integer.parseInt(args[2]);
        double[] ms = new double[runs];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long sum = run(reuse, n);
            ms[r] = (System.nanoTime() - t0) / 1e6;
            if (sum != n * (n + 1)) {
                throw new AssertionError("wrong sum " + sum);
            }
        }
        double[] warm = Arrays.copyOfRange(ms, runs / 3, runs);
        Arrays.sort(warm);
        System.out.printf("%s n=%d first=%.2f warm median=%.2f min=%.2f%n", args[0], n, ms[0], warm[warm.length / 2], warm[0]);
    }

    static long run(boolean reuse, long items) throws InterruptedException {
        SpscArrayQueue<long[]> q = new SpscArrayQueue<>(CAPACITY);
        SpscArrayQueue<long[]> back = new SpscArrayQueue<>(CAPACITY + 2);
        long[] stop = new long[0];
        long[] acc = new long[1];
        Thread producer = new Thread(() -> {
            for (long next = 1; next <= items; ) {
                int k = (int) Math.min(BATCH, items - next + 1);
                long[] b = reuse && k == BATCH ? back.relaxedPoll() : null;
                if (b == null) {
                    b = new long[k];
                }
                for (int i = 0; i < k; i++) {
                    b[i] = next + i;
                }
                next += k;
                while (!q.offer(b)) {
                    Thread.yield();
                }
            }
            while (!q.offer(stop)) {
                Thread.yield();
            }
        });
        Thread consumer = new Thread(() -> {
            long s = 0;
            while (true) {
                long[] b = q.poll();
                if (b == null) {
                    Thread.yield();
                    continue;
                }
                if (b == stop) {
                    break;
                }
                for (long x : b) {
                    s += x * 2;
                }
                if (reuse && b.length == BATCH) {
                    back.relaxedOffer(b);
                }
            }
            acc[0] = s;
        });
        producer.start();
        consumer.start();
        producer.join();
        consumer.join();
        return acc[0];
    }
}
