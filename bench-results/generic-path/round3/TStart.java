import java.util.concurrent.locks.LockSupport;
public class TStart {
    static volatile long tRun;
    public static void main(String[] a) throws Exception {
        int runs = 400;
        long[] st = new long[runs], run = new long[runs], join = new long[runs], unpark = new long[runs];
        for (int r = 0; r < runs; r++) {
            Thread t = new Thread(() -> { tRun = System.nanoTime(); }, "x");
            long t0 = System.nanoTime();
            t.start();
            long t1 = System.nanoTime();
            t.join();
            long t2 = System.nanoTime();
            st[r] = t1 - t0; run[r] = tRun - t0; join[r] = t2 - tRun;
        }
        // unpark latency: a parked thread woken by main
        for (int r = 0; r < runs; r++) {
            final Thread main = Thread.currentThread();
            Thread t = new Thread(() -> { LockSupport.park(); tRun = System.nanoTime(); }, "y");
            t.start();
            Thread.sleep(1);
            long t0 = System.nanoTime();
            LockSupport.unpark(t);
            t.join();
            unpark[r] = tRun - t0;
        }
        System.out.printf("start() %d us, start->run %d us, run->join returns %d us, unpark->runs %d us (p50 of last half)%n",
                p50(st) / 1000, p50(run) / 1000, p50(join) / 1000, p50(unpark) / 1000);
    }
    static long p50(long[] x) { long[] y = java.util.Arrays.copyOfRange(x, x.length / 2, x.length); java.util.Arrays.sort(y); return y[y.length / 2]; }
}
