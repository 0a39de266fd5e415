import java.util.Arrays;
import org.bbflow.core.ChannelSpec;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.LongNodes;
import org.bbflow.core.Pipeline;

/**
 * The unboxed two-stage pipeline started again and again in one process, as the perf-kit runs it:
 * Pipeline.of(LongNodes.range(1, N), LongNodes.sink(x -> acc += 2x)) with channels of CAPACITY
 * batches (0: the default). Prints the first run and the median, minimum and maximum of the last
 * two thirds. Usage: java -cp bbflow-core.jar:jctools-core.jar:agrona.jar:. RepeatedFlows N RUNS CAPACITY
 */
public class RepeatedFlows {
    public static void main(String[] args) {
        long n = Long.parseLong(args[0]);
        int runs = Integer.parseInt(args[1]);
        int capacity = Integer.parseInt(args[2]);
        FlowOptions options = capacity > 0 ? FlowOptions.defaults().withChannels(ChannelSpec.bounded(capacity))
                : FlowOptions.defaults();
        double[] ms = new double[runs];
        for (int r = 0; r < runs; r++) {
            long[] acc = new long[1];
            long t0 = System.nanoTime();
            Pipeline.of(LongNodes.range(1, n), LongNodes.sink(x -> acc[0] += x * 2)).run(options);
            ms[r] = (System.nanoTime() - t0) / 1e6;
            if (acc[0] != n * (n + 1)) {
                throw new AssertionError("wrong sum " + acc[0]);
            }
        }
        double[] warm = Arrays.copyOfRange(ms, runs / 3, runs);
        Arrays.sort(warm);
        System.out.printf("n=%d capacity=%d first=%.1f warm median=%.2f min=%.2f max=%.2f%n", n, capacity, ms[0],
                warm[warm.length / 2], warm[0], warm[warm.length - 1]);
    }
}
