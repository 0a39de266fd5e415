import java.nio.file.*;
import java.util.*;
import org.bbflow.core.*;

/** The two-stage refs pipeline, with a sampler of where its two node threads are (every 2 ms). */
public class TwoProbe {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static volatile boolean sampling;
    static final List<String> samples = Collections.synchronizedList(new ArrayList<>());

    static String statOf(Path task) {
        try {
            String s = Files.readString(task.resolve("stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return f[0] + f[36];
        } catch (Exception e) { return "?"; }
    }

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]);
        int period = a.length > 2 ? Integer.parseInt(a[2]) : 2;
        Thread sampler = new Thread(() -> {
            while (true) {
                try {
                    if (sampling) {
                        String src = null, snk = null;
                        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
                            for (Path t : ds) {
                                try {
                                    String comm = Files.readString(t.resolve("comm")).trim();
                                    if (comm.startsWith("pipeline/sourc")) src = statOf(t);
                                    else if (comm.startsWith("pipeline/sink")) snk = statOf(t);
                                } catch (Exception e) { }
                            }
                        }
                        if (src != null && snk != null) samples.add(src + "," + snk);
                    }
                    Thread.sleep(period);
                } catch (Exception e) { }
            }
        });
        sampler.setDaemon(true);
        if (period > 0) sampler.start();
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]); });
            samples.clear();
            sampling = true;
            long t0 = System.nanoTime();
            Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run(FlowOptions.defaults());
            long t1 = System.nanoTime();
            sampling = false;
            int both = 0, same = 0;
            for (String s : new ArrayList<>(samples)) {
                String[] p = s.split(",");
                if (p[0].startsWith("R") && p[1].startsWith("R")) { both++; if (p[0].substring(1).equals(p[1].substring(1))) same++; }
            }
            System.out.printf("RUN %d %.1f samples %d bothR %d sameCPU %d%n", r, (t1 - t0) / 1e6, samples.size(), both, same);
        }
    }
}
