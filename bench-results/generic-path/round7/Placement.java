import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import org.bbflow.core.*;

/** Per run of a refs two-stage flow: its time, and for each node thread the vCPU it started and ended on, its migrations and switches. */
public class Placement {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }

    static String stat(String field) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/thread-self/sched"))) {
                if (l.startsWith(field + " ")) return l.substring(l.indexOf(':') + 1).trim();
            }
        } catch (Exception e) { }
        return "?";
    }
    static int cpu() {
        try {
            String s = Files.readString(Path.of("/proc/thread-self/stat"));
            return Integer.parseInt(s.substring(s.lastIndexOf(')') + 2).split(" ")[36]);
        } catch (Exception e) { return -1; }
    }

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]);
        Queue<String> log = new ConcurrentLinkedQueue<>();
        ThreadFactory tf = r -> new Thread(() -> {
            int c0 = cpu();
            String m0 = stat("se.nr_migrations");
            r.run();
            log.add(Thread.currentThread().getName().replace("pipeline/", "") + " cpu " + c0 + "->" + cpu()
                    + " mig " + m0 + "->" + stat("se.nr_migrations") + " inv " + stat("nr_involuntary_switches")
                    + " vol " + stat("nr_voluntary_switches"));
        });
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); });
            int mc = cpu();
            long t0 = System.nanoTime();
            Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run(FlowOptions.defaults().withThreadFactory(tf));
            long t1 = System.nanoTime();
            List<String> l = new ArrayList<>(log); log.clear();
            Collections.sort(l);
            System.out.printf("RUN %d %6.2f ms main@%d %s%n", r, (t1 - t0) / 1e6, mc, String.join(" | ", l));
        }
    }
}
