import com.sun.jna.*;
import org.bbflow.core.*;
/** Warm refs two-stage with the two node threads pinned to distinct CPUs (JNA sched_setaffinity), or not. */
public class Pin {
    public interface C extends Library { C I = Native.load("c", C.class); int sched_setaffinity(int pid, int size, long[] mask); }
    static void pin(int cpu) { if (C.I.sched_setaffinity(0, 8, new long[] {1L << cpu}) != 0) throw new IllegalStateException("affinity"); }
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]); boolean pin = a[2].equals("pin");
        if (a[3].equals("preload")) C.I.hashCode();
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long[] acc = new long[1]; boolean[] pinned = new boolean[1];
            Source<Long> src = Nodes.source(out -> { if (pin) pin(0); for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]); });
            Pipeline.of(src, Nodes.sink((Long x) -> { if (pin && !pinned[0]) { pinned[0] = true; pin(1); } acc[0] += x * 2; })).run(FlowOptions.defaults());
            long t1 = System.nanoTime();
            System.out.printf("RUN %d %.3f%n", r, (t1 - t0) / 1e6);
        }
    }
}
