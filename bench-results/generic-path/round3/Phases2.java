import org.bbflow.core.*;

public class Phases2 {
    static final Long[] REFS = new Long[1 << 16];
    static { for (int i = 0; i < REFS.length; i++) REFS[i] = Long.valueOf(i + 1001L); }
    static volatile long tFirstSend, tLastSend, tLast, tEos;

    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]); int runs = Integer.parseInt(a[1]);
        double[][] s = new double[6][runs];
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            Source<Long> src = Nodes.source(out -> { tFirstSend = System.nanoTime(); for (long i = 1; i <= n; i++) out.send(REFS[(int) ((i - 1) & 0xffff)]); tLastSend = System.nanoTime(); });
            Node<Long, Void> sink = Nodes.sink((Long x) -> acc[0] += x * 2);
            Block<?, ?> p = Pipeline.of(src, sink);
            long t0 = System.nanoTime();
            Flow f = Flow.start(p, FlowOptions.defaults());
            long tS = System.nanoTime();
            f.join();
            long t1 = System.nanoTime();
            s[0][r] = (tS - t0) / 1e3; s[1][r] = (tFirstSend - tS) / 1e3; s[2][r] = (tLastSend - tFirstSend) / 1e3; s[3][r] = (t1 - tLastSend) / 1e3; s[4][r] = (t1 - t0) / 1e3;
        }
        int from = runs / 2;
        System.out.printf("Flow.start %.0f us | start returns->source runs %.0f us | items (source side) %.0f us | last send->join returns %.0f us | total %.0f us%n",
                med(s[0], from), med(s[1], from), med(s[2], from), med(s[3], from), med(s[4], from));
    }
    static double med(double[] x, int from) { double[] y = java.util.Arrays.copyOfRange(x, from, x.length); java.util.Arrays.sort(y); return y[y.length / 2]; }
}
