package org.bbflow.bench.channel;

import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.bench.support.Pipe;
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
 * Ping-pong round-trip latency: the benchmark thread sends a token on one channel, an echo thread
 * sends it back on a second channel, the benchmark thread receives it. {@link Mode#SampleTime}
 * records the distribution, so the results carry p50, p99 and p99.9. One echo thread per
 * iteration, joined in tear-down. Compares BBFlow's channel under each wait strategy with raw
 * JCTools (spinning), {@code LinkedBlockingQueue} and the thesis-style channel.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class PingPongBench {
    private static final Object TOKEN = new Object();
    private static final Object STOP = new Object();

    /** The channel implementation (see {@link Pipe}). */
    @Param({"bbflow-busyspin", "bbflow-backoff", "bbflow-blocking", "jctools", "lbq", "thesis"})
    public String impl;

    private Pipe ping;
    private Pipe pong;
    private PeerThread echo;

    /** Creates the two channels and starts the echo thread. */
    @Setup(Level.Iteration)
    public void start() {
        ping = Pipe.create(impl, 1024);
        pong = Pipe.create(impl, 1024);
        Pipe in = ping;
        Pipe out = pong;
        echo = new PeerThread("echo-" + impl, () -> {
            Object x;
            while ((x = in.receive()) != STOP) {
                out.send(x);
            }
        });
    }

    /** One round trip. */
    @Benchmark
    public Object roundTrip() {
        ping.send(TOKEN);
        return pong.receive();
    }

    /** Stops and joins the echo thread. */
    @TearDown(Level.Iteration)
    public void stop() {
        ping.send(STOP);
        echo.join();
    }
}
