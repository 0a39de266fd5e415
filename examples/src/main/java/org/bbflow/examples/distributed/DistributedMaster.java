package org.bbflow.examples.distributed;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteBlocks;
import org.bbflow.net.RemoteOutlet;

/**
 * The emitter/collector side of a distributed farm: sends the tasks 1..n round-robin to the
 * {@link DistributedWorker} JVMs and sums what comes back.
 *
 * <pre>
 * java -cp examples.jar org.bbflow.examples.distributed.DistributedMaster hostA:7001,hostB:7001 10000000 100
 * </pre>
 */
public final class DistributedMaster {
    private DistributedMaster() {}

    /** What came back: item count, the sum of the results, and the wall time. */
    public record Result(long items, long sum, Duration elapsed) {
        /**
         * Items per second over the whole run.
         *
         * @return items per second
         */
        public double itemsPerSecond() {
            return items / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }

        @Override
        public String toString() {
            return String.format("%d items, sum %d, %d ms, %.0f items/s", items, sum, elapsed.toMillis(), itemsPerSecond());
        }
    }

    /**
     * Parses {@code host:port,host:port,...}.
     *
     * @param addresses the comma-separated addresses
     * @return unresolved socket addresses, in order
     * @throws IllegalArgumentException if one is not host:port with a port 1..65535
     */
    public static List<InetSocketAddress> parse(String addresses) {
        List<InetSocketAddress> list = new ArrayList<>();
        for (String a : addresses.split(",")) {
            int colon = a.lastIndexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("worker address must be host:port, was '" + a + "'");
            int port;
            try {
                port = Integer.parseInt(a.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("worker address must be host:port, was '" + a + "'");
            }
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range in '" + a + "'");
            list.add(InetSocketAddress.createUnresolved(a.substring(0, colon), port));
        }
        return list;
    }

    /**
     * Runs the farm with default options, taking results on 127.0.0.1.
     *
     * @param workers the worker JVMs' addresses
     * @param items tasks 1..items
     * @param rounds loop rounds per task
     * @return what came back
     */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds) {
        return run(workers, items, rounds, NetOptions.defaults());
    }

    /**
     * Runs the farm with the same options to connect and to take results, on 127.0.0.1.
     *
     * @param workers the worker JVMs' addresses
     * @param items tasks 1..items
     * @param rounds loop rounds per task
     * @param options network options of both directions
     * @return what came back
     */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds, NetOptions options) {
        return run(workers, items, rounds, "127.0.0.1", options, options);
    }

    /**
     * Sends 1..items round-robin to the worker JVMs, each task being {@code rounds} of the thesis's
     * loop, and collects the results, which the workers send to {@code host} (an ephemeral port);
     * throws a {@code FlowException} if a worker fails or vanishes. {@code serverOptions} apply to
     * the results' listener, {@code clientOptions} to the connections to the workers (with TLS: a
     * server context and a client context).
     *
     * @param workers the worker JVMs' addresses
     * @param items tasks 1..items
     * @param rounds loop rounds per task
     * @param host the address the results are taken on (the workers must reach it)
     * @param serverOptions network options of the results' listener
     * @param clientOptions network options of the connections to the workers
     * @return what came back
     */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds, String host,
                             NetOptions serverOptions, NetOptions clientOptions) {
        if (workers.isEmpty()) throw new IllegalArgumentException("no worker addresses");
        long t0 = System.nanoTime();
        LongAdder count = new LongAdder();
        LongAdder sum = new LongAdder();
        List<NetClient> clients = new ArrayList<>();
        try (NetServer results = NetServer.bind(host, 0, serverOptions)) {
            List<Flow> collectors = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                collectors.add(Flow.start(Pipeline.of(RemoteBlocks.inlet(results, i, Codec.longs()), Nodes.sink((Long y) -> {
                    count.increment();
                    sum.add(y);
                }))));
            }
            List<Block<?, ?>> senders = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                InetSocketAddress w = workers.get(i);
                NetClient c = NetClient.connect(w.getHostString(), w.getPort(), clientOptions);
                clients.add(c);
                try (RemoteOutlet<DistributedWorker.Job> control = c.outlet(0, Codec.record(DistributedWorker.Job.class))) {
                    control.send(new DistributedWorker.Job(i, results.port(), rounds));
                    control.complete();
                }
                senders.add(RemoteBlocks.outlet(c, 1, Codec.longs()));
            }
            Pipeline.of(Nodes.range(1, items), Farm.of(senders).withoutCollector()).run();
            for (Flow f : collectors) f.join();
        } finally {
            for (NetClient c : clients) c.close();
        }
        return new Result(count.sum(), sum.sum(), Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * Legacy entry point, {@code host:port[,host:port...] items [rounds]}: the same as
     * {@code java -jar bbflow-examples.jar master --workers ... --items ... --rounds ...}.
     *
     * @param args worker addresses, items and optionally rounds
     */
    public static void main(String[] args) {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: DistributedMaster <host:port,...> <items> [rounds=100]"
                    + "   (or: java -jar bbflow-examples.jar master --help)");
            System.exit(2);
        }
        org.bbflow.examples.Main.main(new String[] {"master", "--workers", args[0], "--items", args[1], "--rounds",
            args.length > 2 ? args[2] : "100"});
    }
}
