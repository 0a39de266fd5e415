package org.bbflow.examples.distributed;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
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
     * As {@link #run(List, long, int, String, NetOptions, NetOptions, Duration)} with a stall timeout
     * of {@link #DEFAULT_STALL_TIMEOUT} (the network's default peer timeout).
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
        return run(workers, items, rounds, host, serverOptions, clientOptions, DEFAULT_STALL_TIMEOUT);
    }

    /** The stall timeout of the runs that are not given one: the network's default peer timeout, 30 s. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Sends 1..items round-robin to the worker JVMs, each task being {@code rounds} of the thesis's
     * loop, and collects the results, which the workers send to {@code host} (an ephemeral port);
     * throws a {@code FlowException} if a worker fails or vanishes. {@code serverOptions} apply to
     * the results' listener, {@code clientOptions} to the connections to the workers (with TLS: a
     * server context and a client context).
     *
     * <p>A worker that stays connected but stops reading (stuck, or a process that only looks like a
     * worker) keeps its connection alive, so the peer timeout never fires, while the sends to it wait
     * for window for ever. So the run also fails, with an {@link IllegalStateException} naming the
     * worker, once no task went out to a worker and no result came back from it for
     * {@code stallTimeout} while its results are not all in. A task must therefore take less than
     * that to compute (here it takes microseconds).
     *
     * @param workers the worker JVMs' addresses
     * @param items tasks 1..items
     * @param rounds loop rounds per task
     * @param host the address the results are taken on (the workers must reach it)
     * @param serverOptions network options of the results' listener
     * @param clientOptions network options of the connections to the workers
     * @param stallTimeout how long a worker may make no progress (the command line passes its peer timeout)
     * @return what came back
     * @throws IllegalStateException if a worker made no progress for {@code stallTimeout}
     */
    public static Result run(List<InetSocketAddress> workers, long items, int rounds, String host,
                             NetOptions serverOptions, NetOptions clientOptions, Duration stallTimeout) {
        if (workers.isEmpty()) throw new IllegalArgumentException("no worker addresses");
        if (stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("stallTimeout must be positive, was " + stallTimeout);
        }
        long t0 = System.nanoTime();
        LongAdder count = new LongAdder();
        LongAdder sum = new LongAdder();
        // per worker: tasks handed to its outlet, and results taken from it; watched by watch()
        LongAdder[] sent = new LongAdder[workers.size()];
        LongAdder[] taken = new LongAdder[workers.size()];
        List<NetClient> clients = new ArrayList<>();
        try (NetServer results = NetServer.bind(host, 0, serverOptions)) {
            List<Flow> collectors = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                LongAdder p = taken[i] = new LongAdder();
                sent[i] = new LongAdder();
                collectors.add(Flow.start(Pipeline.of(RemoteBlocks.inlet(results, i, Codec.longs()), Nodes.sink((Long y) -> {
                    count.increment();
                    sum.add(y);
                    p.increment();
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
                LongAdder p = sent[i];
                // counted on the outlet's own thread, just before a send that waits while the window is full
                senders.add(Nodes.map((Long x) -> {
                    p.increment();
                    return x;
                }).andThen(RemoteBlocks.outlet(c, 1, Codec.longs())));
            }
            Flow sending = Flow.start(Pipeline.of(Nodes.range(1, items), Farm.of(senders).withoutCollector()));
            watch(workers, sent, taken, sending, collectors, stallTimeout);
            sending.join();
            for (Flow f : collectors) f.join();
        } finally {
            for (NetClient c : clients) c.close();
        }
        return new Result(count.sum(), sum.sum(), Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * Waits until every flow is done; throws the sending flow's failure as soon as it has one, and
     * throws if a worker with tasks outstanding (sent, or being sent, and no result back yet) made no
     * progress (no task sent, no result taken) for {@code stallTimeout}, after cancelling the flows.
     * A worker with none outstanding is idle, not stuck: it waits while the emitter waits on another
     * (a worker that stopped reading holds up the round-robin emitter, and every other worker then
     * runs dry; naming them too blamed workers that had done all they were given).
     */
    private static void watch(List<InetSocketAddress> workers, LongAdder[] sent, LongAdder[] taken, Flow sending,
                              List<Flow> collectors, Duration stallTimeout) {
        long stall = stallTimeout.toNanos();
        long step = Math.max(1, Math.min(TimeUnit.MILLISECONDS.toNanos(100), stall / 10));
        long[] seen = new long[sent.length];
        long[] since = new long[sent.length];
        java.util.Arrays.fill(since, System.nanoTime());
        boolean allSent = false;
        while (!allSent || !collectors.stream().allMatch(Flow::isDone)) {
            if (!allSent && sending.isDone()) {
                sending.join(); // a failed send (a worker refused or gone) fails the run at once, as before
                allSent = true;
                continue;
            }
            LockSupport.parkNanos(step);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                sending.cancel(); // as an interrupted run() would: nothing goes on behind the caller
                collectors.forEach(Flow::cancel);
                break; // the joins below throw for the interrupt
            }
            long now = System.nanoTime();
            List<String> stuck = new ArrayList<>();
            for (int i = 0; i < sent.length; i++) {
                long back = taken[i].sum();
                long out = sent[i].sum(); // read second: a result is never counted before its task
                if (stuck(out, back, collectors.get(i).isDone(), seen, since, i, now, stall)) {
                    InetSocketAddress w = workers.get(i);
                    stuck.add(w.getHostString() + ":" + w.getPort());
                }
            }
            if (!stuck.isEmpty()) {
                sending.cancel();
                collectors.forEach(Flow::cancel);
                throw new IllegalStateException((stuck.size() == 1 ? "worker " : "workers ") + String.join(", ", stuck)
                        + " made no progress for " + stallTimeout.toMillis() + " ms (no task taken, no result sent"
                        + " back) though connected: stuck, or not reading its tasks");
            }
        }
    }

    /**
     * Whether worker {@code i} is stuck at {@code now}: tasks outstanding ({@code sent > taken}), its
     * results' flow not done, and neither count changed for more than {@code stall} ns since
     * {@code since[i]}; a change (or nothing outstanding) restarts its clock. A worker with nothing
     * outstanding is idle, not stuck: it waits while the emitter waits on another worker.
     */
    static boolean stuck(long sent, long taken, boolean done, long[] seen, long[] since, int i, long now, long stall) {
        long progress = sent + taken;
        if (progress != seen[i] || sent == taken || done) {
            seen[i] = progress;
            since[i] = now;
            return false;
        }
        return now - since[i] > stall;
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
