package org.bbflow.net;

import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;

/**
 * The master side of the two-namespace test: sends 1..n to the stage at workerHost:workerPort and
 * checks that {@code 2x + 1} comes back in order on its own listening address.
 * Args: workerHost workerPort bindHost bindPort items. Exit 0 on success.
 */
public final class NetnsMaster {
    private NetnsMaster() {}

    public static void main(String[] args) {
        String workerHost = args[0];
        int workerPort = Integer.parseInt(args[1]);
        String bindHost = args[2];
        int bindPort = Integer.parseInt(args[3]);
        long n = Long.parseLong(args[4]);
        NetOptions opts = NetOptions.defaults();
        AtomicLong count = new AtomicLong();
        AtomicLong bad = new AtomicLong();
        long t0 = System.nanoTime();
        try (NetServer server = NetServer.bind(bindHost, bindPort, opts)) {
            Flow back = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 2, Codec.longs()), Nodes.sink((Long y) -> {
                long k = count.incrementAndGet();
                if (y != 2 * k + 1) bad.incrementAndGet();
            })));
            Pipeline.of(Nodes.range(1, n), RemoteBlocks.outlet(workerHost, workerPort, 1, Codec.longs(), opts)).run();
            back.join();
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("master: " + count.get() + " items back, " + bad.get() + " wrong, " + ms + " ms");
        System.exit(count.get() == n && bad.get() == 0 ? 0 : 1);
    }
}
