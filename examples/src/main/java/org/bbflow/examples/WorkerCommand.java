package org.bbflow.examples;

import java.io.IOException;
import java.util.Locale;
import org.bbflow.examples.distributed.DistributedWorker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code worker}: the worker side of a distributed farm. */
@Command(name = "worker", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Distributed farm, worker side: serves one master's tasks from another JVM.",
            "Listens on --bind:--port, runs a farm of N threads over the tasks one master sends, returns the"
                + " results, then exits. Listens on 127.0.0.1 unless --bind says otherwise."})
final class WorkerCommand extends Subcommand {
    @Option(names = "--port", paramLabel = "P", description = "port to listen on, 0 for any (default ${DEFAULT-VALUE})")
    int port = 7001;

    @Option(names = "--threads", paramLabel = "N", description = "worker threads (default: cores, ${DEFAULT-VALUE})")
    int threads = Math.max(1, Machine.cores());

    @Mixin
    NetFlags net;

    @Override
    public Integer call() throws IOException {
        within("--port", port, 0, 65535);
        // the farm's bound, checked before listening: 100,000 failed only once a master had connected
        within("--threads", threads, 1, org.bbflow.core.Parallelism.MAX);
        NetFlags.Both options = net.options(this);
        long tasks = DistributedWorker.run(net.bind, port, threads, options.server(), options.client(),
                p -> out.println("worker: listening on " + net.bind + " port " + p + " with " + threads
                        + " worker threads" + (net.authenticated() ? "" : " (no secret, no TLS)")
                        + "; waiting for a master"));
        out.println(String.format(Locale.ROOT, "worker: processed %,d tasks", tasks));
        return 0;
    }
}
