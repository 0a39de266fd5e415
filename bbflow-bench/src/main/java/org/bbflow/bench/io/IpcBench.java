package org.bbflow.bench.io;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.bbflow.bench.support.PeerThread;
import org.bbflow.core.Channel;
import org.bbflow.core.ipc.IpcCodec;
import org.bbflow.core.ipc.IpcOptions;
import org.bbflow.core.ipc.IpcReceiver;
import org.bbflow.core.ipc.IpcRecordHandler;
import org.bbflow.core.ipc.IpcSender;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Records per microsecond from a producer to the benchmark thread over four transports (set up once
 * per trial, so the producer, thread or child JVM, is warm when measurement starts):
 *
 * <ul>
 *   <li>{@code ipc}: the inter-process channel (1 MiB one-to-one ring in a memory-mapped file),
 *       raw claim/commit of {@code recordSize}-byte records (the producer copies the whole record
 *       into the ring); the consumer reads the first long of each. Both ends are in this JVM here: the shared-memory path is the same as between two
 *       processes.</li>
 *   <li>{@code ipc-process}: the same, with the producer in a child JVM ({@link IpcBenchProducer},
 *       same java and class path), i.e. a real inter-process transfer.</li>
 *   <li>{@code channel}: core's in-process SPSC {@link Channel} (capacity 1024) passing a reference
 *       to a preallocated {@code byte[recordSize]}: no bytes are copied, so it is an upper bound.</li>
 *   <li>{@code tcp}: a loopback {@code SocketChannel} pair; the producer writes 64 KiB of records
 *       per write, the consumer reads and counts bytes.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
// Agrona 2 (the ipc channel) needs jdk.internal.misc opened in the forked JVM
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
@State(Scope.Benchmark)
public class IpcBench {
    /** Records per invocation. */
    public static final int BATCH = 1 << 14;

    /** Transport. */
    @Param({"ipc", "ipc-process", "channel", "tcp"})
    public String impl;

    /** Record size in bytes. */
    @Param({"8", "1024"})
    public int recordSize;

    private volatile boolean stop;
    private PeerThread producer;
    private Process child;
    private Path file;
    private IpcReceiver<byte[]> rx;
    private Channel<byte[]> channel;
    private SocketChannel tcpIn;
    private SocketChannel tcpOut;
    private ByteBuffer tcpBuffer;
    private long tcpBytes;
    private final Counter counter = new Counter();

    /** Counts received IPC records and reads their first long. */
    static final class Counter implements IpcRecordHandler {
        long count;
        long sum;

        @Override
        public void onRecord(int producer, DirectBuffer buffer, int offset, int length) {
            count++;
            sum += buffer.getLong(offset);
        }
    }

    /** Creates the transport and starts the producer. */
    @Setup(Level.Trial)
    public void start() throws IOException {
        stop = false;
        final int size = recordSize;
        switch (impl) {
            case "ipc": {
                file = Files.createTempFile("bbflow-ipc-bench", ".ring");
                rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults().withCapacity(1 << 20));
                IpcSender<byte[]> tx = IpcSender.open(file, IpcCodec.bytes());
                byte[] payload = new byte[size];
                producer = new PeerThread("ipc-producer", () -> {
                    MutableDirectBuffer b = tx.buffer();
                    long seq = 0;
                    try {
                        while (!stop) {
                            int i = tx.tryClaim(size);
                            if (i < 0) {
                                Thread.onSpinWait();
                                continue;
                            }
                            b.putBytes(i, payload); // the whole record is written, as TCP sends it
                            b.putLong(i, seq++);
                            tx.commit(i);
                        }
                    } finally {
                        tx.close();
                    }
                });
                break;
            }
            case "ipc-process": {
                file = Files.createTempFile("bbflow-ipc-bench", ".ring");
                rx = IpcReceiver.create(file, IpcCodec.bytes(), IpcOptions.defaults().withCapacity(1 << 20));
                String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
                child = new ProcessBuilder(java, "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    IpcBenchProducer.class.getName(), file.toString(), Integer.toString(size))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
                producer = new PeerThread("ipc-process-watch", () -> { });
                break;
            }
            case "channel": {
                channel = Channel.spsc(1024);
                Channel<byte[]> ch = channel;
                byte[] item = new byte[size];
                producer = new PeerThread("channel-producer", () -> {
                    while (!stop) {
                        if (!ch.offer(item)) {
                            Thread.onSpinWait();
                        }
                    }
                });
                break;
            }
            case "tcp": {
                try (ServerSocketChannel server = ServerSocketChannel.open()
                        .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                    tcpIn = SocketChannel.open(server.getLocalAddress());
                    tcpOut = server.accept();
                }
                tcpBuffer = ByteBuffer.allocateDirect(1 << 16);
                tcpBytes = 0;
                SocketChannel out = tcpOut;
                producer = new PeerThread("tcp-producer", () -> {
                    ByteBuffer b = ByteBuffer.allocateDirect((1 << 16) / size * size);
                    long seq = 0;
                    try {
                        while (!stop) {
                            b.clear();
                            for (int p = 0; p + size <= b.capacity(); p += size) {
                                if (size >= 8) {
                                    b.putLong(p, seq++);
                                }
                            }
                            while (b.hasRemaining()) {
                                out.write(b);
                            }
                        }
                    } catch (IOException e) {
                        if (!stop) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                break;
            }
            default:
                throw new IllegalArgumentException("unknown impl " + impl);
        }
    }

    /** Receives {@link #BATCH} records. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long receive() throws IOException {
        switch (impl) {
            case "ipc":
            case "ipc-process": {
                Counter c = counter;
                long target = c.count + BATCH;
                while (c.count < target) {
                    if (rx.read(c, (int) (target - c.count)) == 0) {
                        producer.check();
                        if (child != null && !child.isAlive()) {
                            throw new IllegalStateException("producer process ended with " + child.exitValue());
                        }
                        Thread.onSpinWait();
                    }
                }
                return c.sum;
            }
            case "channel": {
                long n = 0;
                long sum = 0;
                while (n < BATCH) {
                    byte[] x = channel.poll();
                    if (x == null) {
                        Thread.onSpinWait();
                    } else {
                        n++;
                        sum += x.length;
                    }
                }
                return sum;
            }
            default: {
                long target = tcpBytes + (long) BATCH * recordSize;
                while (tcpBytes < target) {
                    tcpBuffer.clear();
                    int n = tcpIn.read(tcpBuffer);
                    if (n < 0) {
                        producer.check();
                        throw new IllegalStateException("tcp producer closed");
                    }
                    tcpBytes += n;
                }
                return tcpBytes;
            }
        }
    }

    /** Stops the producer and releases the transport. */
    @TearDown(Level.Trial)
    public void stop() throws IOException {
        stop = true;
        if ("tcp".equals(impl)) {
            tcpIn.close(); // unblocks a producer stuck in write
            producer.join();
            tcpOut.close();
        } else {
            producer.join();
        }
        if (child != null) {
            child.destroyForcibly();
            try {
                child.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            child = null;
        }
        if (rx != null) {
            rx.close();
            rx = null;
            Files.deleteIfExists(file);
        }
    }
}
