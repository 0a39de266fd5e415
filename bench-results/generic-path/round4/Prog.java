import org.bbflow.core.*;
/** First run of the refs two-stage with progress stamps at the sink: where the first run's time goes. */
public class Prog {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static final long[] STAMP = new long[64];
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        long t0 = System.nanoTime();
        long[] acc = new long[2];
        Source<Long> src = Nodes.source(out -> { STAMP[0] = System.nanoTime(); for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]); STAMP[63] = System.nanoTime(); });
        Pipeline<Long, Void> p = null;
        long tb = System.nanoTime();
        Pipeline.of(src, Nodes.sink((Long x) -> { acc[0] += x * 2; long c = ++acc[1]; if ((c & 0x7ffff) == 0 || c == 1) STAMP[1 + (int) (c >>> 19)] = System.nanoTime(); }))
                .run(FlowOptions.defaults());
        long t1 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("total %.1f  built %.1f  srcstart %.1f  first %.1f |", (t1 - t0) / 1e6, (tb - t0) / 1e6, (STAMP[0] - t0) / 1e6, (STAMP[1] - t0) / 1e6));
        for (int i = 2; i < 63 && STAMP[i] != 0; i++) sb.append(String.format(" %.1f", (STAMP[i] - STAMP[i - 1]) / 1e6));
        sb.append(String.format(" | srcdone->end %.2f lastchunk->srcdone %.2f", (t1 - STAMP[63]) / 1e6, (STAMP[63] - STAMP[(int) (n >>> 19)]) / 1e6));
        System.out.println(sb);
        if (a.length < 2 || !a[1].equals("uptime")) return; // the chunk ends as JVM uptime, for -XX:+LogCompilation
        long up = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime(); long nowN = System.nanoTime();
        StringBuilder u = new StringBuilder("uptime of chunk ends (ms):");
        for (int i = 1; i < 63 && STAMP[i] != 0; i++) u.append(String.format(" %.0f", up - (nowN - STAMP[i]) / 1e6));
        System.out.println(u);
    }
}
