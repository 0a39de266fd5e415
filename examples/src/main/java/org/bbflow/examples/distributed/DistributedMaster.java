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
        /** Items per second over the whole run. */
        public double itemsPerSecond() {
            return items / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }

        @Override
        public String toString() {
            return String.format("%d items, sum %d, %d ms, %.0f items/s", items, sum, elapsed.toMillis(), itemsPerSecond());
        }
    }

    /** Parses {@code host:port,host:port,...}. */
    public static List<InetSocketAddress> parse(String addresses) {
        List<InetSocketAddress> list = new ArrayList<>();
        for (String a : addresses.split(",")) {
            int colon = a.lastIndexOf(':');
            if (colon <= 0) throw new IllegalArgumentException("worker address must be host:port, was '" + a + "'");
            list.add(InetSocketAddress.createUnresolved(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
        }
        return list;
    }

    /** Runs the farm with default options (30 s peer timeout). */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds) {
        return run(workers, items, rounds, NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(30)));
    }

    /**
     * Sends 1..items round-robin to the worker JVMs, each task being {@code rounds} of the thesis's
     * loop, and collects the results; throws a {@code FlowException} if a worker fails or vanishes.
     */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds, NetOptions options) {
        if (workers.isEmpty()) throw new IllegalArgumentException("no worker addresses");
        long t0 = System.nanoTime();
        LongAdder count = new LongAdder();
        LongAdder sum = new LongAdder();
        List<NetClient> clients = new ArrayList<>();
        try (NetServer results = NetServer.bind(0, options)) {
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
                NetClient c = NetClient.connect(w.getHostString(), w.getPort(), options);
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

    /** Args: {@code host:port[,host:port...] items [rounds]}. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: DistributedMaster <host:port,...> <items> [rounds=100]");
            System.exit(2);
        }
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Result r = run(parse(args[0]), Long.parseLong(args[1]), rounds);
        System.out.println("DistributedMaster: " + r);
    }
}
