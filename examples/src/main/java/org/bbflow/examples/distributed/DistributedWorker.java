package org.bbflow.examples.distributed;

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

    /**
     * The thesis's CPU-bound task: {@code rounds} times {@code y *= 1000; y /= 999}.
     *
     * @param x the task
     * @param rounds loop rounds
     * @return the result
     */
    public static long work(long x, int rounds) {
        long y = x;
        for (int i = 0; i < rounds; i++) {
            y *= 1000;
            y /= 999;
        }
        return y;
    }

    /**
     * Serves one job on {@code 127.0.0.1:port} with default options.
     *
     * @param port the port to listen on (0: any)
     * @param workers worker threads
     * @return the number of tasks processed
     */
    public static long run(int port, int workers) {
        return run(port, workers, NetOptions.defaults(), p -> { });
    }

    /**
     * Serves one job on {@code 127.0.0.1:port} with the same options for listening and for sending
     * the results back; see {@link #run(String, int, int, NetOptions, NetOptions, IntConsumer)}.
     *
     * @param port the port to listen on (0: any)
     * @param workers worker threads
     * @param options network options of both directions
     * @param listening told the port once the worker listens
     * @return the number of tasks processed
     */
    public static long run(int port, int workers, NetOptions options, IntConsumer listening) {
        return run("127.0.0.1", port, workers, options, options, listening);
    }

    /**
     * Serves one job: listens on {@code host:port} (0 = ephemeral; {@code listening} is told the
     * port) with {@code serverOptions}, runs a farm of {@code workers} threads on the task stream,
     * sends the results to the master with {@code clientOptions} (with TLS: a server context to
     * listen, a client context to connect) and returns the number of tasks processed.
     *
     * @param host the address to listen on
     * @param port the port to listen on (0: any)
     * @param workers worker threads
     * @param serverOptions network options of the listener (tasks)
     * @param clientOptions network options of the connection to the master (results)
     * @param listening told the port once the worker listens
     * @return the number of tasks processed
     */
    public static long run(String host, int port, int workers, NetOptions serverOptions, NetOptions clientOptions,
                           IntConsumer listening) {
        if (workers < 1) throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        LongAdder processed = new LongAdder();
        try (NetServer server = NetServer.bind(host, port, serverOptions)) {
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
                    RemoteBlocks.outlet(master, job.resultPort(), job.index(), Codec.longs(), clientOptions)).run();
        }
        return processed.sum();
    }

    /**
     * Legacy entry point, {@code port workers}: the same as
     * {@code java -jar bbflow-examples.jar worker --port PORT --threads WORKERS} (which takes more options).
     *
     * @param args port and worker threads
     */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: DistributedWorker <listen port> <worker threads>"
                    + "   (or: java -jar bbflow-examples.jar worker --help)");
            System.exit(2);
        }
        org.bbflow.examples.Main.main(new String[] {"worker", "--port", args[0], "--threads", args[1]});
    }
}
