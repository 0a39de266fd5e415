import org.bbflow.core.*;
import java.nio.file.*;
import java.util.*;

public class FirstFlowPre {
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
        boolean pre = a.length > 1 && a[1].equals("pre");
        List<String> names = Files.readAllLines(Path.of("/tmp/s7/preload.txt"));
        Runnable r = () -> { };
        r.run();
        String s = "x" + a.length;
        long t0 = System.nanoTime();
        if (pre) {
            Thread t = new Thread() { public void run() {
                ClassLoader cl = FirstFlowPre.class.getClassLoader();
                for (String c : names) { try { Class.forName(c, false, cl); } catch (Throwable e) { } }
            }};
            t.setDaemon(true);
            t.start();
        }
        flow(n);
        long t1 = System.nanoTime();
        System.out.printf("RUN 0 %.3f%n", (t1 - t0) / 1e6);
    }
}
