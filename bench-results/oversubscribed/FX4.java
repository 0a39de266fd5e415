import org.bbflow.core.*;
import java.util.*;
public class FX4 {
    static long spin(long x, int w) { long y = x; for (int i = 0; i < w; i++) { y = (y * 31 + i) % 1_000_003; } return y; }
    static double med(List<Double> l) { List<Double> c = new ArrayList<>(l); Collections.sort(c); return c.get(c.size() / 2); }
    public static void main(String[] a) {
        Map<String, List<Double>> t = new LinkedHashMap<>();
        String[] shapes = {"3stage-cheap-1M", "16stage-w200-100k", "farm16-w360-100k"};
        for (String s : shapes) t.put(s, new ArrayList<>());
        for (int r = 0; r < 7; r++) {
            for (String s : shapes) {
                long[] acc = {0};
                long t0 = System.nanoTime();
                if (s.startsWith("3stage")) {
                    Pipeline.of(Nodes.range(1, 1_000_000), Nodes.map((Long x) -> x + 1), Nodes.sink((Long y) -> acc[0] += y)).run();
                } else if (s.startsWith("16stage")) {
                    List<Block<?, ?>> st = new ArrayList<>();
                    st.add(Nodes.range(1, 100_000));
                    for (int i = 0; i < 16; i++) st.add(Nodes.map((Long x) -> spin(x, 200) + 1));
                    st.add(Nodes.sink((Long y) -> acc[0] += y));
                    Pipeline.of(st.toArray(new Block[0])).run();
                } else {
                    Pipeline.of(Nodes.range(1, 100_000), Farm.of(16, () -> Nodes.map((Long x) -> spin(x, 360))),
                            Nodes.sink((Long y) -> acc[0] += y)).run();
                }
                long t1 = System.nanoTime();
                if (r >= 2) t.get(s).add((t1 - t0) / 1e6);
            }
        }
        StringBuilder b = new StringBuilder();
        for (String s : shapes) b.append(String.format(" %s %.1f ms", s, med(t.get(s))));
        System.out.println(b);
    }
}
