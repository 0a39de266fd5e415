package org.bbflow.net;

import java.time.Duration;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;

/**
 * The middle stage of a pipeline, run in another JVM (a child process, or a network namespace):
 * receives longs on channel 1, sends {@code 2x + 1} to {@code parentHost:parentPort} channel 2.
 * Prints {@code PORT <n>} once its inlet listens. Args: bindHost parentHost parentPort [peerTimeoutMs].
 */
public final class ChildStage {
    private ChildStage() {}

    public static void main(String[] args) {
        String bindHost = args[0];
        String parentHost = args[1];
        int parentPort = Integer.parseInt(args[2]);
        long timeout = args.length > 3 ? Long.parseLong(args[3]) : 10_000;
        NetOptions opts = NetOptions.defaults().withPeerTimeout(Duration.ofMillis(timeout))
                .withHeartbeat(Duration.ofMillis(Math.min(1000, timeout / 4)));
        int status = 0;
        try (NetServer server = NetServer.bind(bindHost, 0, opts)) {
            var in = RemoteBlocks.inlet(server, 1, Codec.longs());
            System.out.println("PORT " + server.port());
            System.out.flush();
            Pipeline.of(in, Nodes.map((Long x) -> 2 * x + 1),
                    RemoteBlocks.outlet(parentHost, parentPort, 2, Codec.longs(), opts)).run();
        } catch (RuntimeException e) {
            e.printStackTrace();
            status = 1;
        }
        System.out.println("DONE " + status);
        System.exit(status);
    }
}
