import org.bbflow.core.*;
import java.util.*;

public class FarmL {
    static long spin(long x, int reps) { long y = x; for (int i = 0; i < reps; i++) { y *= 1000; y /= 999; } return y; }
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]), items = Integer.parseInt(a[1]), runs = Integer.parseInt(a[2]);
        boolean stats = Boolean.getBoolean("stats");
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            List<Block<?, ?>> lws = new ArrayList<>();
            for (int i = 0; i < 2; i++) lws.add(LongNodes.map(x -> spin(x, w)));
            Farm<Object, Object> lf = Farm.of(lws);
            lf.emitter((Node) LongNodes.range(1, items));
            lf.collector((Node) LongNodes.sink(y -> acc[0] += y));
            long sleep = Long.getLong("sleep", 0);
            if (sleep > 0) lf.channels(ChannelSpec.defaults().withWaitStrategy(WaitStrategy.of(() -> new org.agrona.concurrent.SleepingIdleStrategy(sleep))));
            long t0 = System.nanoTime();
            RunStats st = lf.run(FlowOptions.defaults());
            long t1 = System.nanoTime();
            System.out.printf("RUN %d %.3f%n", r, (t1 - t0) / 1e6);
            if (stats && r >= runs - 3) System.out.println(st.table());
        }
    }
}
