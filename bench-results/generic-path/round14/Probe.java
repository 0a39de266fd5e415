import java.nio.file.*;
import java.util.*;
import org.bbflow.core.*;
import org.jctools.queues.SpscArrayQueue;

/** Where the two node threads of a two-stage refs pipeline run: CPU at first/last item, run-queue wait, migrations. */
public class Probe {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = (long) i + 1001; }
    static final Long STOP = Long.MIN_VALUE;

    static long[] snap() { // cpu, runqueue wait ns, migrations
        try {
            String st = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
            long cpu = Long.parseLong(f[36]);
            String[] ss = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ");
            long mig = 0;
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/sched"))) {
                if (line.startsWith("se.nr_migrations")) mig = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
            return new long[] {cpu, Long.parseLong(ss[1]), mig};
        } catch (Exception e) { throw new RuntimeException(e); }
    }

    static volatile long[] p0, p1, c0, c1;

    static long bbflow(long n, FlowOptions o) {
        long[] acc = new long[2];
        Source<Long> src = Nodes.source(out -> {
            p0 = snap();
            for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]);
            p1 = snap();
        });
        Pipeline.of(src, Nodes.sink((Long x) -> {
            if (acc[1]++ == 0) c0 = snap();
            acc[0] += x * 2;
            if (acc[1] == n) c1 = snap();
        })).run(o);
        return acc[0];
    }

    static volatile boolean open;
    static void spinGate() { while (!open) Thread.onSpinWait(); }
    static long raw(long n, boolean gated) throws Exception { return raw(n, gated, false); }
    static long raw(long n, boolean gated, boolean spin) throws Exception {
        open = false;
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(gated ? 1 : 0);
        SpscArrayQueue<Long> q = new SpscArrayQueue<>(1024);
        long[] acc = new long[1];
        Thread p = new Thread(() -> {
            if (spin) spinGate(); else try { gate.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            p0 = snap();
            for (long i = 1; i <= n; i++) { Long x = REFS[(int) ((i - 1) & 0xffff)]; while (!q.relaxedOffer(x)) Thread.yield(); }
            p1 = snap();
            while (!q.offer(STOP)) Thread.yield();
        });
        Thread c = new Thread(() -> {
            if (spin) spinGate(); else try { gate.await(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            long a = 0; boolean first = true;
            while (true) {
                Long x = q.relaxedPoll();
                if (x == null) { Thread.yield(); continue; }
                if (first) { c0 = snap(); first = false; }
                if (x == STOP) break;
                a += x * 2;
            }
            c1 = snap();
            acc[0] = a;
        });
        p.start(); c.start(); open = true; gate.countDown(); p.join(); c.join();
        return acc[0];
    }

    static long[] cpuRun() throws Exception { // ns each CPU spent running tasks
        long[] r = new long[2];
        for (String line : Files.readAllLines(Path.of("/proc/schedstat"))) {
            if (line.startsWith("cpu0 ") || line.startsWith("cpu1 ")) {
                String[] f = line.split(" ");
                r[line.charAt(3) - '0'] = Long.parseLong(f[7]);
            }
        }
        return r;
    }

    public static void main(String[] a) throws Exception {
        String mode = a[0]; long n = Long.parseLong(a[1]); int runs = Integer.parseInt(a[2]);
        FlowOptions o = FlowOptions.defaults();
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long s = mode.startsWith("raw") ? raw(n, mode.equals("rawgate"), mode.equals("rawspin")) : bbflow(n, o);
            long t = System.nanoTime() - t0;
            if (s == 0) System.out.println("?");
            System.out.printf("%s %2d %7.2f ms  prod cpu %d->%d rqwait %5.2f ms mig %d | cons cpu %d->%d rqwait %5.2f ms mig %d%n",
                mode, r, t / 1e6, p0[0], p1[0], (p1[1] - p0[1]) / 1e6, p1[2] - p0[2], c0[0], c1[0], (c1[1] - c0[1]) / 1e6, c1[2] - c0[2]);
        }
    }
}
