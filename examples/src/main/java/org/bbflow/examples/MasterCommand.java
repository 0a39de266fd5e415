package org.bbflow.examples;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import org.bbflow.examples.distributed.DistributedMaster;
import org.bbflow.examples.distributed.DistributedWorker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code master}: the emitter/collector side of a distributed farm. */
@Command(name = "master", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Distributed farm, emitter/collector side: sends tasks to worker JVMs.",
            "Deals tasks 1..N round-robin to the worker JVMs, takes their results on an ephemeral port of --bind,"
                + " sums them and checks the sum against a local computation. Workers on other machines send"
                + " their results to --bind, so it must then be an address they reach."})
final class MasterCommand extends Subcommand {
    @Option(names = "--workers", required = true, paramLabel = "HOST:PORT[,HOST:PORT...]",
            description = "the worker JVMs")
    String workers;

    @Option(names = "--items", paramLabel = "N", description = "tasks (default ${DEFAULT-VALUE})")
    long items = 1_000_000;

    @Option(names = "--rounds", paramLabel = "R", description = "loop rounds per task (default ${DEFAULT-VALUE})")
    int rounds = 100;

    @Mixin
    NetFlags net;

    @Override
    public Integer call() throws IOException {
        atLeast("--items", items, 1);
        atLeast("--rounds", rounds, 0);
        List<InetSocketAddress> addresses = checked(() -> DistributedMaster.parse(workers));
        // A worker serves one master connection: the same worker named twice (127.0.0.1:7001,localhost:7001) ran
        // the peer timeout (30 s) while the worker logged a refusal a second, then failed "refused by
        // localhost:7001: stream owned by a connected sender". Compared by resolved address where the name
        // resolves (InetSocketAddress.equals), else by name.
        java.util.Map<InetSocketAddress, String> seen = new java.util.HashMap<>();
        for (InetSocketAddress a : addresses) {
            String named = a.getHostString() + ":" + a.getPort();
            String before = seen.putIfAbsent(new InetSocketAddress(a.getHostString(), a.getPort()), named);
            if (before != null) {
                throw usage("--workers names one worker twice, " + before + " and " + named
                        + ": a worker serves one connection; run another worker for a second one");
            }
        }
        NetFlags.Both options = net.options(this);
        if (NetFlags.isLoopback(this, "--bind", net.bind)) {
            for (InetSocketAddress a : addresses) {
                if (!NetFlags.isLoopback(this, "--workers", a.getHostString())) {
                    throw usage("worker " + a.getHostString() + " is on another machine but results are taken on "
                            + net.bind + ": give --bind with an address it reaches (and --secret-file or --tls)");
                }
            }
        }
        out.println(String.format(Locale.ROOT, "master: %,d tasks of %d rounds to %d worker JVM(s): %s", items, rounds,
                addresses.size(), workers));
        // a worker connected but not reading fails the run after the peer timeout too (no progress)
        DistributedMaster.Result r = DistributedMaster.run(addresses, items, rounds, net.bind, options.server(),
                options.client(), net.peerTimeout != null ? net.peerTimeout : DistributedMaster.DEFAULT_STALL_TIMEOUT);
        long expected = 0;
        for (long x = 1; x <= items; x++) {
            expected += DistributedWorker.work(x, rounds);
        }
        boolean ok = r.items() == items && r.sum() == expected;
        out.println(String.format(Locale.ROOT, "master: %,d results in %.3f s = %,.0f tasks/s; sum %d %s", r.items(),
                r.elapsed().toNanos() / 1e9, r.itemsPerSecond(), r.sum(),
                ok ? "matches the local computation" : "DIFFERS from the local computation " + expected));
        return ok ? 0 : 1;
    }
}
