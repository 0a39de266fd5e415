import org.bbflow.core.*;

/** BBFlow two-stage with variants: capacity, strategy. args: strategy capacity n runs */
public class BProbe {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }

    static final class Sum implements Node<Long, Void> {
        long s;
        @Override public void onItem(Long x, Outbox<Void> out) { s += x * 2; }
    }

    static final boolean PAD = Boolean.getBoolean("pad");
    static Object keep;
    static final boolean STATS = Boolean.getBoolean("stats");
    static final boolean LAM = Boolean.getBoolean("lam");
    public static void main(String[] a) throws Exception {
        String strat = a[0]; int cap = Integer.parseInt(a[1]); long n = Long.parseLong(a[2]); int runs = Integer.parseInt(a[3]);
        WaitStrategy ws = strat.equals("yieldonly") ? WaitStrategy.backoff(1, 1 << 30, java.time.Duration.ofNanos(1000), java.time.Duration.ofNanos(1000)) : strat.equals("busyspin") ? WaitStrategy.busySpin() : strat.equals("blocking") ? WaitStrategy.blocking() : WaitStrategy.backoff();
        FlowOptions o = FlowOptions.defaults().withWaitStrategy(ws).withChannels(ChannelSpec.bounded(cap));
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            Sum sum = new Sum();
            long[] pad = PAD ? new long[32] : null;
            long t0 = System.nanoTime();
            RunStats st = LAM ? Pipeline.of(Nodes.<Long>source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); }), Nodes.sink((Long x) -> acc[0] += x * 2)).run(o)
               : Pipeline.of(Nodes.<Long>source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); }), sum).run(o);
            if (STATS && (Boolean.getBoolean("statsall") || r >= runs - 3)) System.out.println(st.table());
            long t1 = System.nanoTime(); keep = pad;
            System.out.printf("RUN %s two %d %.3f%n", strat, r, (t1 - t0) / 1e6);
        }
    }
}
