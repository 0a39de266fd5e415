package org.bbflow.bench.net;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteInlet;
import org.bbflow.net.RemoteOutlet;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Long items over loopback, one stream per invocation: bbflow-network's channel (outlet on the
 * benchmark thread, inlet consumed on another thread) vs raw Netty with the same framing vs the
 * thesis's ObjectOutputStream design. The {@code items} and {@code bytes} counters are rates
 * (per second): items/s and payload bytes/s (8 per item; divide by 1e6 for MB/s).
 *
 * <pre>
 * java -jar bbflow-bench/target/benchmarks.jar 'net.NetLongThroughputBench' -f 1 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-Dio.netty.buffer.checkAccessible=false"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class NetLongThroughputBench {

    @Param({"1000000", "10000000"})
    public long items;

    private NetServer server;
    private NetClient client;
    private int nextChannel;
    private RawNettyChannel raw;
    private RawNettyChannel rawHandoff;
    private ExecutorService consumer;

    /** Rates reported next to the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Rates {
        public long items;
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            items = 0;
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
        client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults());
        raw = new RawNettyChannel();
        rawHandoff = new RawNettyChannel(true);
        consumer = Executors.newSingleThreadExecutor();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        client.close();
        server.close();
        raw.close();
        rawHandoff.close();
        consumer.shutdownNow();
    }

    @Benchmark
    public long bbflowChannel(Rates rates) throws Exception {
        int ch = nextChannel++;
        RemoteInlet<Long> in = server.inlet(ch, Codec.longs());
        Future<Long> received = consumer.submit(() -> {
            long sum = 0;
            for (Long x; (x = in.take()) != null; ) sum += x;
            in.close();
            return sum;
        });
        try (RemoteOutlet<Long> out = client.outlet(ch, Codec.longs())) {
            for (long i = 0; i < items; i++) out.send(i);
            out.complete();
        }
        long sum = received.get();
        count(rates);
        return sum;
    }

    /** The same channel through its primitive fast paths ({@code sendLong}, {@code drainLongs}): no boxing. */
    @Benchmark
    public long bbflowChannelPrimitive(Rates rates) throws Exception {
        int ch = nextChannel++;
        RemoteInlet<Long> in = server.inlet(ch, Codec.longs());
        Future<Long> received = consumer.submit(() -> {
            long[] sum = new long[1];
            in.drainLongs(x -> sum[0] += x);
            in.close();
            return sum[0];
        });
        try (RemoteOutlet<Long> out = client.outlet(ch, Codec.longs())) {
            for (long i = 0; i < items; i++) out.sendLong(i);
            out.complete();
        }
        long sum = received.get();
        count(rates);
        return sum;
    }

    @Benchmark
    public long rawNetty(Rates rates) {
        long sum = raw.transfer(items);
        count(rates);
        return sum;
    }

    /** Raw Netty, same framing, but frames decoded on a consumer thread like a bbflow inlet (no acks, no window). */
    @Benchmark
    public long rawNettyHandoff(Rates rates) throws Exception {
        Future<Long> received = consumer.submit(() -> rawHandoff.consumeHandedOff(items));
        rawHandoff.sendOnly(items);
        long sum = received.get();
        count(rates);
        return sum;
    }

    @Benchmark
    public long thesisObjectStream(Rates rates) throws Exception {
        try (ThesisTcpChannel.Receiver rx = new ThesisTcpChannel.Receiver()) {
            long[] sum = new long[1];
            Future<Long> received = consumer.submit(() -> rx.receive(x -> sum[0] += x));
            try (ThesisTcpChannel.Sender tx = new ThesisTcpChannel.Sender(rx.port())) {
                for (long i = 0; i < items; i++) tx.send(i);
            }
            received.get();
            count(rates);
            return sum[0];
        }
    }

    private void count(Rates rates) {
        rates.items += items;
        rates.bytes += 8 * items;
    }
}
