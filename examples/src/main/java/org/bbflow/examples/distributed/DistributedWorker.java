package org.bbflow.examples.distributed;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;
import org.bbflow.core.Farm;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteBlocks;
import org.bbflow.net.RemoteInlet;

/**
 * The worker side of a distributed farm: one JVM (on any host) running a farm of {@code workers}
 * threads over the tasks a {@link DistributedMaster} sends it, returning results to the master.
 *
 * <p>Protocol: channel 0 carries one {@link Job} (this JVM's index, the master's result port, the
 * work size), channel 1 the task stream (longs); results go back to the master's address (as seen
 * on the incoming connection) on channel {@code index}. One job per run.
 *
 * <pre>
 * java -cp examples.jar org.bbflow.examples.distributed.DistributedWorker 7001 4
 * </pre>
 */
public final class DistributedWorker {
    private DistributedWorker() {}

    /** What the master tells each worker JVM before the tasks. */
    public record Job(int index, int resultPort, int rounds) {}

    /** The thesis's CPU-bound task: {@code rounds} times {@code y *= 1000; y /= 999}. */
    public static long work(long x, int rounds) {
        long y = x;
        for (int i = 0; i < rounds; i++) {
            y *= 1000;
            y /= 999;
        }
        return y;
    }

    /** Serves one job on {@code port} with default options; returns the number of tasks processed. */
    public static long run(int port, int workers) {
        return run(port, workers, NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(30)), p -> { });
    }

    /**
     * Serves one job: listens on {@code port} (0 = ephemeral; {@code listening} is told the port),
     * runs a farm of {@code workers} threads on the task stream and returns the number of tasks processed.
     */
    public static long run(int port, int workers, NetOptions options, IntConsumer listening) {
        if (workers < 1) throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        LongAdder processed = new LongAdder();
        try (NetServer server = NetServer.bind(port, options)) {
            RemoteInlet<Job> control = server.inlet(0, Codec.record(Job.class));
            var tasks = RemoteBlocks.inlet(server, 1, Codec.longs());
            listening.accept(server.port());
            Job job = control.take();
            if (job == null) throw new IllegalStateException("master ended the control channel without a job");
            while (control.take() != null) { /* end of the control stream */ }
            String master = control.senderAddress().getAddress().getHostAddress();
            int rounds = job.rounds();
            Pipeline.of(tasks,
                    Farm.of(workers, () -> Nodes.map((Long x) -> {
                        processed.increment();
                        return work(x, rounds);
                    })),
                    RemoteBlocks.outlet(master, job.resultPort(), job.index(), Codec.longs(), options)).run();
        }
        return processed.sum();
    }

    /** Args: {@code port workers}. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: DistributedWorker <listen port> <worker threads>");
            System.exit(2);
        }
        int workers = Integer.parseInt(args[1]);
        long n = run(Integer.parseInt(args[0]), workers, NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(30)),
                p -> System.out.println("DistributedWorker listening on port " + p + " with " + workers + " workers"));
        System.out.println("DistributedWorker processed " + n + " tasks");
    }
}
