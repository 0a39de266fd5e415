import org.bbflow.core.*;

class MarkStart { }
class MarkEnd { }
public class FirstFlow {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }

    static long flow(long n) throws Exception {
        long[] acc = new long[1];
        Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]); });
        Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run(FlowOptions.defaults());
        return acc[0];
    }

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        int runs = Integer.parseInt(a[1]);
        // the user's own first lambda and string concat happen before (as in PerfJ's harness)
        Runnable r = () -> { };
        r.run();
        String s = "x" + a.length;
        for (int i = 0; i < runs; i++) {
            if (i == 0) new MarkStart();
            long t0 = System.nanoTime();
            flow(n);
            long t1 = System.nanoTime();
            if (i == 0) new MarkEnd();
            System.out.printf("RUN %d %.3f%n", i, (t1 - t0) / 1e6);
        }
    }
}
