import org.bbflow.core.*;
import java.time.Duration;
import java.util.*;
public class FX3 {
    static long spin(long x, int w) { long y = x; for (int i = 0; i < w; i++) { y = (y * 31 + i) % 1_000_003; } return y; }
    static double med(List<Double> l) { List<Double> c = new ArrayList<>(l); Collections.sort(c); return c.get(c.size() / 2); }
    public static void main(String[] a) {
        int w = Integer.parseInt(a[0]); int items = Integer.parseInt(a[1]); int spins = Integer.parseInt(a[2]);
        WaitStrategy ws = spins < 0 ? WaitStrategy.backoff() : WaitStrategy.backoff(spins, 16, Duration.ofNanos(1000), Duration.ofMillis(1));
        String[] shapes = {"seq", "full", "srcEmitter"};
        Map<String, List<Double>> t = new LinkedHashMap<>();
        for (String s : shapes) t.put(s, new ArrayList<>());
        for (int r = 0; r < 7; r++) {
            for (String s : shapes) {
                long[] acc = {0};
                long t0 = System.nanoTime();
                if (s.equals("seq")) {
                    for (long i = 1; i <= items; i++) acc[0] += spin(i, w);
                } else if (s.equals("srcEmitter")) {
                    Farm<Long, Long> f = Farm.of(2, () -> Nodes.map((Long x) -> spin(x, w)));
                    f.emitter((Node) Nodes.range(1, items));
                    f.collector((Node) Nodes.sink((Long y) -> acc[0] += y));
                    f.run(FlowOptions.defaults().withWaitStrategy(ws));
                } else {
                    Farm<Long, Long> f = Farm.of(2, () -> Nodes.map((Long x) -> spin(x, w)));
                    Pipeline.of(Nodes.range(1, items), f, Nodes.sink((Long y) -> acc[0] += y)).run(FlowOptions.defaults().withWaitStrategy(ws));
                }
                long t1 = System.nanoTime();
                if (r >= 2) t.get(s).add((t1 - t0) / 1e6);
            }
        }
        double seq = med(t.get("seq"));
        StringBuilder b = new StringBuilder("W=" + w + " quick=" + System.getProperty("hack.quick", "32") + " spins=" + spins + ":");
        for (String s : shapes) b.append(String.format(" %s %.1f ms (%.2f)", s, med(t.get(s)), seq / med(t.get(s))));
        System.out.println(b);
    }
}
