import java.util.function.Consumer;
import org.jctools.queues.SpscArrayQueue;
import org.bbflow.core.*;

public class Probe {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static final long[] FULL = new long[64]; static final long[] PAD = new long[64]; static final long[] EMPTY = new long[64];
    static final Long STOP = Long.valueOf(-77777L);

    static final class Flag { long p0,p1,p2,p3,p4,p5,p6,p7; volatile boolean raised; volatile Thread parked; long q0,q1,q2,q3,q4,q5,q6,q7; }
    static final class Counter { long p0,p1,p2,p3,p4,p5,p6,p7; long n; long q0,q1,q2,q3,q4,q5,q6,q7; }

    static long run(String v, long n) throws Exception {
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(1024);
        long[] acc = new long[1];
        boolean heap = v.contains("heap"), vol = v.contains("vol"), call = v.contains("call"), cnt = v.contains("cnt");
        Flag fp = new Flag(), fc = new Flag(), cancel = new Flag();
        Counter cp = new Counter(), cc = new Counter();
        Consumer<Long> sink = x -> acc[0] += x * 2;
        Thread pr = new Thread(() -> {
            long fulls = 0;
            for (long i = 1; i <= n; i++) {
                Long x = REFS[(int) ((i - 1) & MASK)];
                if (vol && cancel.raised) throw new IllegalStateException();
                while (!q.relaxedOffer(x)) { Thread.yield(); fulls++; }
                if (vol && fc.parked != null) System.out.print("");
                if (cnt) cp.n++;
            }
            while (!q.offer(STOP)) Thread.yield();
            FULL[0] = fulls;
        });
        Thread co = new Thread(() -> {
            long a = 0, empties = 0;
            while (true) {
                Long x = q.relaxedPoll();
                if (x == null) { Thread.yield(); empties++; continue; }
                if (x == STOP) break;
                if (vol) { if (fp.parked != null) System.out.print(""); if (cancel.raised) throw new IllegalStateException(); }
                if (call) sink.accept(x); else if (heap) acc[0] += x * 2; else a += x * 2;
                if (cnt) cc.n++;
            }
            if (!heap && !call) acc[0] = a;
            EMPTY[0] = empties;
        });
        pr.start(); co.start(); pr.join(); co.join();
        return acc[0];
    }

    static long bb(long n) throws Exception {
        long[] acc = new long[1];
        Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); });
        Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run(FlowOptions.defaults());
        return acc[0];
    }

    public static void main(String[] a) throws Exception {
        String v = a[0]; long n = Long.parseLong(a[1]); int runs = Integer.parseInt(a[2]);
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long s = v.equals("bbflow") ? bb(n) : run(v, n);
            long t1 = System.nanoTime();
            System.out.printf("RUN %s %d %.3f %d full %d empty %d%n", v, r, (t1 - t0) / 1e6, s, FULL[0], EMPTY[0]); FULL[0]=0; EMPTY[0]=0;
        }
    }
}
