import org.jctools.queues.SpscArrayQueue;
import java.util.function.Consumer;

/** Raw JCTools two-thread loops with one BBFlow-like difference at a time. */
public class Probe {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static final Long STOP = Long.valueOf(-1);
    static volatile boolean flag;
    static final boolean DIAG = Boolean.getBoolean("diag");
    static final long[] OCC = new long[12];
    static { if (DIAG) Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("OCC " + java.util.Arrays.toString(OCC)))); }

    public static void main(String[] a) throws Exception {
        String v = a[0]; long n = Long.parseLong(a[1]); int runs = Integer.parseInt(a[2]);
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long s = run(v, n);
            long t1 = System.nanoTime();
            if (s == 42) System.out.println();
            System.out.printf("RUN %s two %d %.3f%n", v, r, (t1 - t0) / 1e6);
        }
    }

    static long run(String v, long n) throws Exception {
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(Integer.getInteger("cap", 1024));
        long[] acc = new long[1];
        boolean heap = v.contains("heap");
        boolean spin = v.contains("spin");
        boolean lam = v.contains("lam");
        Consumer<Long> sink = x -> acc[0] += x * 2;
        Thread p = new Thread(() -> {
            for (long i = 1; i <= n; i++) {
                Long x = REFS[(int) ((i - 1) & MASK)];
                while (!q.relaxedOffer(x)) { if (spin) Thread.onSpinWait(); else Thread.yield(); }
            }
            while (!q.offer(STOP)) Thread.yield();
        });
        Thread c = new Thread(() -> {
            long s = 0; long cnt = 0;
            while (true) {
                Long x = q.relaxedPoll();
                if (x == null) { if (spin) Thread.onSpinWait(); else Thread.yield(); continue; }
                if (x == STOP) break;
                if (DIAG && (++cnt & 4095) == 0) { int occ = q.size(); OCC[Math.min(11, 32 - Integer.numberOfLeadingZeros(occ))]++; }
                if (lam) sink.accept(x);
                else if (heap) acc[0] += x * 2;
                else s += x * 2;
            }
            if (!heap && !lam) acc[0] = s;
        });
        p.start(); c.start(); p.join(); c.join();
        return acc[0];
    }
}
