import org.jctools.queues.SpscArrayQueue;
import java.lang.management.ManagementFactory;
import java.util.function.Consumer;

/** Raw JCTools two-thread loop; prints each thread's CPU time per run (ms). args: n runs; -Dcap */
public class Probe2 {
    interface Sender { void send(Object x); }
    static final class Holder implements Sender {
        final SpscArrayQueue<Object> q;
        Holder(SpscArrayQueue<Object> q) { this.q = q; }
        public void send(Object x) {
            SpscArrayQueue<Object> qq = q;
            if (qq != null && x != null && qq.relaxedOffer(x)) return;
            slow(x);
        }
        void send2(Object x) {
            if (!q.relaxedOffer(x)) slow(x);
        }
        void send3(Object x) {
            SpscArrayQueue<Object> qq = q;
            if (qq != null && x != null && qq.relaxedOffer(x)) return;
            slowStatic(this, x);
        }
        static void slowStatic(Holder h, Object x) { h.slow(x); }
        void send4(Object x) {
            if (x == null) throw new IllegalArgumentException();
            while (!q.relaxedOffer(x)) Thread.yield();
        }
        void slow(Object x) { if (x == null) throw new IllegalArgumentException(); while (!q.relaxedOffer(x)) Thread.yield(); }
    }
    static final String V = System.getProperty("pv", "raw");

    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static final Long STOP = Long.valueOf(-1);
    static volatile long pc, cc;
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]);
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long s = run(n);
            long t1 = System.nanoTime();
            if (s == 42) System.out.println();
            System.out.printf("RUN raw two %d %.3f prodcpu %.2f conscpu %.2f%n", r, (t1 - t0) / 1e6, pc / 1e6, cc / 1e6);
        }
    }
    static long run(long n) throws Exception {
        SpscArrayQueue<Object> q = new SpscArrayQueue<>(Integer.getInteger("cap", 1024));
        Holder h = new Holder(q); Sender snd = h;
        long[] acc = new long[1];
        Consumer<Long> sink = x -> acc[0] += x * 2;
        var mx = ManagementFactory.getThreadMXBean();
        Thread p = new Thread(() -> {
            long c0 = mx.getCurrentThreadCpuTime();
            if (V.equals("holder")) {
                for (long i = 1; i <= n; i++) {
                    Long x = REFS[(int) ((i - 1) & MASK)];
                    while (!h.q.relaxedOffer(x)) Thread.yield();
                }
            } else if (V.equals("send2")) {
                for (long i = 1; i <= n; i++) h.send2(REFS[(int) ((i - 1) & MASK)]);
            } else if (V.equals("send3")) {
                for (long i = 1; i <= n; i++) h.send3(REFS[(int) ((i - 1) & MASK)]);
            } else if (V.equals("send4")) {
                for (long i = 1; i <= n; i++) h.send4(REFS[(int) ((i - 1) & MASK)]);
            } else if (V.equals("hsend")) {
                for (long i = 1; i <= n; i++) h.send(REFS[(int) ((i - 1) & MASK)]);
            } else if (V.equals("iface")) {
                for (long i = 1; i <= n; i++) {
                    snd.send(REFS[(int) ((i - 1) & MASK)]);
                }
            } else {
            for (long i = 1; i <= n; i++) {
                Long x = REFS[(int) ((i - 1) & MASK)];
                while (!q.relaxedOffer(x)) Thread.yield();
            }
            }
            while (!q.offer(STOP)) Thread.yield();
            pc = mx.getCurrentThreadCpuTime() - c0;
        });
        Thread c = new Thread(() -> {
            long c0 = mx.getCurrentThreadCpuTime();
            while (true) {
                Long x = (Long) q.relaxedPoll();
                if (x == null) { Thread.yield(); continue; }
                if (x == STOP) break;
                sink.accept(x);
            }
            cc = mx.getCurrentThreadCpuTime() - c0;
        });
        p.start(); c.start(); p.join(); c.join();
        return acc[0];
    }
}
