import org.bbflow.core.*;
public class PinInit {
    public static void main(String[] a) throws Exception {
        long t0 = System.nanoTime();
        ThreadMapping m = ThreadMapping.roundRobin();
        long t1 = System.nanoTime();
        FlowOptions o = FlowOptions.defaults().withThreadMapping(m);
        long[] acc = new long[1];
        Pipeline.of(Nodes.range(1, 10), Nodes.sink((Long x) -> acc[0] += x)).run(o);
        long t2 = System.nanoTime();
        Pipeline.of(Nodes.range(1, 10), Nodes.sink((Long x) -> acc[0] += x)).run(o);
        long t3 = System.nanoTime();
        System.out.printf("mapping %.1f ms, first pinned flow %.1f ms, second %.1f ms%n", (t1-t0)/1e6, (t2-t1)/1e6, (t3-t2)/1e6);
    }
}
