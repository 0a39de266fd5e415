import org.jctools.queues.SpscArrayQueue;
/** The raw JCTools floor with the same progress stamps as Prog. */
public class ProgJ {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static final long[] STAMP = new long[64];
    static final Long STOP = Long.valueOf(Long.MIN_VALUE);
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        long t0 = System.nanoTime();
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(1024);
        long[] acc = new long[2];
        Thread p = new Thread(() -> { STAMP[0] = System.nanoTime(); for (long i = 1; i <= n; i++) { Long x = REFS[(int) ((i - 1) & 0xffff)]; while (!q.relaxedOffer(x)) Thread.yield(); } while (!q.offer(STOP)) Thread.yield(); });
        Thread c = new Thread(() -> { long s = 0, cnt = 0; while (true) { Long x = q.relaxedPoll(); if (x == null) { Thread.yield(); continue; } if (x == STOP) break; s += x * 2; long k = ++cnt; if ((k & 0x7ffff) == 0 || k == 1) STAMP[1 + (int) (k >>> 19)] = System.nanoTime(); } acc[0] = s; });
        p.start(); c.start(); p.join(); c.join();
        long t1 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("total %.1f  srcstart %.1f  first %.1f |", (t1 - t0) / 1e6, (STAMP[0] - t0) / 1e6, (STAMP[1] - t0) / 1e6));
        for (int i = 2; i < 64 && STAMP[i] != 0; i++) sb.append(String.format(" %.1f", (STAMP[i] - STAMP[i - 1]) / 1e6));
        System.out.println(sb);
    }
}
