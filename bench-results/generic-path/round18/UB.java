import org.bbflow.core.*;
public final class UB {
    static final int MASK = (1 << 16) - 1;
    static final Long[] REFS = new Long[MASK + 1];
    static { for (int i = 0; i <= MASK; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static long refs(long n) throws Exception {
        long[] acc = new long[1];
        Source<Long> src = Nodes.source(out -> { for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & MASK)]); });
        Pipeline.of(src, Nodes.sink((Long x) -> acc[0] += x * 2)).run();
        return acc[0];
    }
    static final Object[][] RING = new Object[2048][256];
    static long batched(long n, int b) throws Exception {
        long[] acc = new long[1];
        Source<Object[]> src = Nodes.source(out -> {
            int ri = 0; Object[] cur = RING[ri]; int k = 0;
            for (long i = 1; i <= n; i++) { cur[k++] = REFS[(int) ((i - 1) & MASK)]; if (k == b) { out.send(cur); ri = (ri + 1) & 2047; cur = RING[ri]; k = 0; } }
            if (k > 0) { Object[] last = java.util.Arrays.copyOf(cur, k); out.send(last); }
        });
        Pipeline.of(src, Nodes.sink((Object[] a) -> { for (Object o : a) acc[0] += ((Long) o) * 2; })).run();
        return acc[0];
    }
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[1]); int runs = Integer.parseInt(a[2]);
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            long s = a[0].equals("refs") ? refs(n) : batched(n, Integer.parseInt(a[0]));
            long t1 = System.nanoTime();
            if (r >= runs - 5) System.out.printf("%s %d %.2f ms (%d)%n", a[0], n, (t1 - t0) / 1e6, s);
        }
    }
}
