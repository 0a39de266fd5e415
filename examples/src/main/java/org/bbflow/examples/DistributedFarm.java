package org.bbflow.examples;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bbflow.examples.distributed.DistributedMaster;
import org.bbflow.examples.distributed.DistributedWorker;

/**
 * The {@code worker} and {@code master} subcommands: a farm whose workers live in other JVMs, on
 * this host or others (the programs themselves are in {@code org.bbflow.examples.distributed}).
 * Start one {@code worker} per JVM, then one {@code master} naming them; the master checks the
 * sum of the results against the same tasks computed locally.
 *
 * <pre>
 * java -jar bbflow-examples.jar worker --port 7001 --threads 2     # on host A (and B, ...)
 * java -jar bbflow-examples.jar master --workers hostA:7001,hostB:7001 --items 1000000
 * </pre>
 */
public final class DistributedFarm {
    private DistributedFarm() {
    }

    /** The {@code worker} subcommand: serves one master's job, then exits. */
    public static int worker(Args a, Output out) {
        a.rejectUnknown("worker", Set.of("port", "threads"));
        int port = a.intOption("port", 7001);
        int threads = a.intOption("threads", Math.max(1, Machine.cores()));
        out.println("worker: listening on port " + port + " with " + threads + " worker threads; waiting for a master");
        long tasks = DistributedWorker.run(port, threads);
        out.println(String.format(Locale.ROOT, "worker: processed %,d tasks", tasks));
        return 0;
    }

    /** The {@code master} subcommand: sends the tasks, collects the results and checks their sum. */
    public static int master(Args a, Output out) {
        a.rejectUnknown("master", Set.of("workers", "items", "rounds"));
        String addresses = a.option("workers", null);
        if (addresses == null) {
            throw new IllegalArgumentException("--workers host:port[,host:port...] is required");
        }
        List<InetSocketAddress> workers = DistributedMaster.parse(addresses);
        long items = a.longOption("items", 1_000_000);
        int rounds = a.intOption("rounds", 100);
        if (items < 1 || rounds < 0) {
            throw new IllegalArgumentException("--items must be >= 1 and --rounds >= 0");
        }
        out.println(String.format(Locale.ROOT, "master: %,d tasks of %d rounds to %d worker JVM(s): %s", items, rounds,
                workers.size(), addresses));
        DistributedMaster.Result r = DistributedMaster.run(workers, items, rounds);
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

    /** Usage of {@code worker}. */
    public static String workerUsage() {
        return String.join("\n",
                "worker [--port P] [--threads N]",
                "  The worker side of a distributed farm: listens on port P (default 7001), runs a farm of N threads",
                "  (default: cores) over the tasks one master sends, returns the results, then exits.");
    }

    /** Usage of {@code master}. */
    public static String masterUsage() {
        return String.join("\n",
                "master --workers HOST:PORT[,HOST:PORT...] [--items N] [--rounds R]",
                "  The emitter/collector side of a distributed farm: deals tasks 1..N round-robin to the worker",
                "  JVMs, sums their results and checks the sum against a local computation.",
                "  Defaults: --items 1000000 --rounds 100");
    }
}
