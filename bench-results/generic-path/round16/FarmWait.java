import java.time.Duration;
import java.util.*;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.bbflow.core.*;

/** Probe (round 16): the boxed farm at W steps per task under different wait strategies. */
public class FarmWait {
    static long spin(long x, int reps) { long y = x; for (int i = 0; i < reps; i++) { y *= 1000; y /= 999; } return y; }
    static boolean stats = Boolean.getBoolean("stats");

    static WaitStrategy strategy(String how) {
        switch (how) {
            case "backoff": return WaitStrategy.backoff();
            case "blocking": return WaitStrategy.blocking();
            case "agrona": return WaitStrategy.of(() -> new BackoffIdleStrategy(64, 16, 1_000, 1_000_000));
            case "agrona100": return WaitStrategy.of(() -> new BackoffIdleStrategy(64, 16, 1_000, 100_000));
            case "sleep50": return WaitStrategy.of(() -> new SleepingIdleStrategy(50_000));
            case "noyield": return WaitStrategy.backoff(64, 0, Duration.ofNanos(1_000), Duration.ofMillis(1));
            case "moreyield": return WaitStrategy.backoff(64, 256, Duration.ofNanos(1_000), Duration.ofMillis(1));
            default: throw new IllegalArgumentException(how);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static long farm(String how, int w, int items) throws Exception {
        if (how.equals("seq")) { long acc = 0; for (long i = 1; i <= items; i++) acc += spin(i, w); return acc; }
        if (how.equals("pstream")) return java.util.stream.LongStream.rangeClosed(1, items).parallel().map(x -> spin(x, w)).sum();
        List<Block<?, ?>> ws = new ArrayList<>();
        for (int i = 0; i < 2; i++) ws.add(Nodes.map((Long x) -> spin(x, w)));
        Farm<Object, Object> farm = Farm.of(ws);
        long[] acc = new long[1];
        farm.emitter((Node) Nodes.range(1, items));
        farm.collector((Node) Nodes.sink((Long y) -> acc[0] += y));
        RunStats st = farm.run(FlowOptions.defaults().withWaitStrategy(strategy(how)));
        if (stats) System.out.println(st.table());
        return acc[0];
    }

    public static void main(String[] a) throws Exception {
        String how = a[0]; int w = Integer.parseInt(a[1]); int items = Integer.parseInt(a[2]); int runs = Integer.parseInt(a[3]);
        double[] t = new double[runs];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime(); long s = farm(how, w, items); t[r] = (System.nanoTime() - t0) / 1e6;
            if (s == 42) System.out.println();
        }
        double[] warm = Arrays.copyOfRange(t, 3, runs); Arrays.sort(warm);
        StringBuilder sb = new StringBuilder();
        for (double x : t) sb.append(String.format(Locale.ROOT, " %.0f", x));
        System.out.printf(Locale.ROOT, "%s median %.1f ms runs:%s%n", how, warm[warm.length / 2], sb);
    }
}
