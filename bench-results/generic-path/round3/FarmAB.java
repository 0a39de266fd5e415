import java.time.Duration;
import java.util.*;
import org.bbflow.core.*;

public class FarmAB {
    static long spin(long x, int reps) { long y = x; for (int i = 0; i < reps; i++) { y *= 1000; y /= 999; } return y; }

    static WaitStrategy strat(String s) {
        if (s.equals("default")) return WaitStrategy.backoff();
        if (s.equals("busyspin")) return WaitStrategy.busySpin();
        if (s.equals("blocking")) return WaitStrategy.blocking();
        String[] p = s.split("-"); // S-Y-minUs-maxUs
        return WaitStrategy.backoff(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Duration.ofNanos((long) (Double.parseDouble(p[2]) * 1000)), Duration.ofNanos((long) (Double.parseDouble(p[3]) * 1000)));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]); int items = Integer.parseInt(a[1]); int runs = Integer.parseInt(a[2]);
        WaitStrategy ws = strat(a[3]);
        boolean stats = Boolean.getBoolean("stats");
        for (int r = 0; r < runs; r++) {
            List<Block<?, ?>> wl = new ArrayList<>();
            for (int i = 0; i < 2; i++) wl.add(Nodes.map((Long x) -> spin(x, w)));
            Farm<Object, Object> farm = Farm.of(wl);
            if ("ondemand".equals(System.getProperty("dispatch"))) farm.dispatch(Dispatch.onDemand());
            long[] acc = new long[1];
            farm.emitter((Node) Nodes.range(1, items));
            farm.collector((Node) Nodes.sink((Long y) -> acc[0] += y));
            long t0 = System.nanoTime();
            RunStats st = farm.run(FlowOptions.defaults().withWaitStrategy(ws));
            long t1 = System.nanoTime();
            if (stats) System.out.println(st.table());
            System.out.printf("RUN %d %.1f%n", r, (t1 - t0) / 1e6);
        }
    }
}
