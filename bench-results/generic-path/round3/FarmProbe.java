import java.nio.file.*;
import java.util.*;
import org.bbflow.core.*;

public class FarmProbe {
    static long spin(long x, int reps) { long y = x; for (int i = 0; i < reps; i++) { y *= 1000; y /= 999; } return y; }

    static volatile boolean sampling;
    // samples: per sample, cpu of worker-0, worker-1, emitter, collector (-1 unknown), state R/S
    static final List<String> samples = Collections.synchronizedList(new ArrayList<>());

    static String statOf(Path task) {
        try {
            String s = Files.readString(task.resolve("stat"));
            String rest = s.substring(s.lastIndexOf(')') + 2);
            String[] f = rest.split(" ");
            return f[0] + f[36]; // state + processor (field 39 overall = index 36 after state at index 0)
        } catch (Exception e) { return "?"; }
    }

    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]); int items = Integer.parseInt(a[1]); int runs = Integer.parseInt(a[2]);
        String strat = a.length > 3 ? a[3] : "backoff";
        Thread sampler = new Thread(() -> {
            try {
                while (true) {
                    if (sampling) {
                        Map<String, String> m = new TreeMap<>();
                        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
                            for (Path t : ds) {
                                try {
                                    String comm = Files.readString(t.resolve("comm")).trim();
                                    if (comm.startsWith("farm/")) m.put(comm.substring(5), statOf(t));
                                } catch (Exception e) { }
                            }
                        }
                        samples.add(m.toString());
                    }
                    Thread.sleep(2);
                }
            } catch (Exception e) { }
        });
        sampler.setDaemon(true); sampler.start();
        for (int r = 0; r < runs; r++) {
            List<Block<?, ?>> ws = new ArrayList<>();
            for (int i = 0; i < 2; i++) ws.add(Nodes.map((Long x) -> spin(x, w)));
            Farm<Object, Object> farm = Farm.of(ws);
            long[] acc = new long[1];
            farm.emitter((Node) Nodes.range(1, items));
            farm.collector((Node) Nodes.sink((Long y) -> acc[0] += y));
            samples.clear();
            sampling = true;
            long t0 = System.nanoTime();
            farm.run(FlowOptions.defaults().withWaitStrategy(FarmAB.strat(strat)));
            long t1 = System.nanoTime();
            sampling = false;
            int same = 0, both = 0;
            Map<String, Integer> hist = new TreeMap<>();
            for (String s : new ArrayList<>(samples)) {
                // parse worker-0=Rn, worker-1=Rm
                String w0 = find(s, "worker-0"), w1 = find(s, "worker-1");
                if (w0 == null || w1 == null) continue;
                if (w0.startsWith("R") && w1.startsWith("R")) { both++; if (w0.substring(1).equals(w1.substring(1))) same++; }
                String key = s.replaceAll("[{}]", "").replaceAll("(collector|emitter|worker-)", "").replaceAll(" ", "");
                hist.merge(key, 1, Integer::sum);
            }
            StringBuilder top = new StringBuilder();
            hist.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(4).forEach(e -> top.append(e.getKey()).append(':').append(e.getValue()).append("  "));
            System.out.printf("RUN %d %.1f ms  samples %d  workers both R %d same cpu %d   %s%n", r, (t1 - t0) / 1e6, samples.size(), both, same, top);
        }
    }

    static String find(String s, String k) {
        int i = s.indexOf(k + "=");
        if (i < 0) return null;
        int j = s.indexOf(',', i); if (j < 0) j = s.indexOf('}', i);
        return s.substring(i + k.length() + 1, j);
    }
}
