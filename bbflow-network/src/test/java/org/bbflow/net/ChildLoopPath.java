package org.bbflow.net;

import java.time.Duration;
import org.bbflow.core.Pipeline;

/**
 * The remote half of a feedback loop, run in a child JVM: receives items on channel 1, a farm of
 * two workers adds one trip ({@link LoopItems#workers}), sends them back to
 * {@code parentHost:parentPort} channel 2. Prints {@code PORT <n>} once its inlet listens and
 * {@code DONE <status>} at the end. Args: bindHost parentHost parentPort failId (-1: none).
 */
public final class ChildLoopPath {
    private ChildLoopPath() {}

    public static void main(String[] args) {
        String bindHost = args[0];
        String parentHost = args[1];
        int parentPort = Integer.parseInt(args[2]);
        int failId = Integer.parseInt(args[3]);
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20));
        int status = 0;
        try (NetServer server = NetServer.bind(bindHost, 0, opts)) {
            var in = RemoteBlocks.inlet(server, 1, Codec.longs());
            System.out.println("PORT " + server.port());
            System.out.flush();
            Pipeline.of(in, LoopItems.workers(2, failId),
                    RemoteBlocks.outlet(parentHost, parentPort, 2, Codec.longs(), opts)).run();
        } catch (RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.println("DONE " + status);
        System.out.flush();
        System.exit(status);
    }
}
