import java.nio.file.*;
import java.util.*;
import org.bbflow.core.*;

/** Per run of a 1M refs two-stage flow: its time and the CPU ticks every other thread of this JVM used meanwhile. */
public class TaskCpu {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }

    static Map<String, Long> ticks() throws Exception {
        Map<String, Long> m = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : ds) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim();
                    long v = Long.parseLong(Files.readString(t.resolve("schedstat")).split(" ")[0]) / 100_000;
                    m.merge(comm.replaceAll("\\d+$", "#"), v, Long::sum);
                } catch (Exception e) { }
            }
        }
        return m;
    }

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]);
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); });
            Map<String, Long> before = ticks();
            long t0 = System.nanoTime();
            RunStats st = Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run(FlowOptions.defaults());
            long t1 = System.nanoTime();
            Map<String, Long> after = ticks();
            StringBuilder sb = new StringBuilder();
            for (var e : after.entrySet()) {
                long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
                if (d > 0 && !e.getKey().startsWith("pipeline")) sb.append(e.getKey()).append('=').append(d).append(' ');
            }
            System.out.printf("RUN %d %.2f ms  others(0.1 ms run time): %s%n", r, (t1 - t0) / 1e6, sb);
        }
    }
}
