import org.bbflow.core.*;
public class Probe {
    public static void main(String[] a) {
        long t0 = System.nanoTime();
        if (a[0].equals("pre")) java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long t1 = System.nanoTime();
        long[] acc = new long[1];
        Pipeline.of(LongNodes.range(1, Long.parseLong(a[1])), LongNodes.sink(x -> acc[0] += x)).run();
        long t2 = System.nanoTime();
        System.out.printf("%s %s pre=%.1f flow=%.1f%n", a[0], a[1], (t1 - t0) / 1e6, (t2 - t1) / 1e6);
    }
}
