package org.bbflow.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review: a {@link ChunkSource} blocked in a read of an input that never delivers could not be
 * cancelled: the cancelled flow waited for the read. Each input here delivers nothing and never ends;
 * {@code cancel()} must end the flow within a deadline with no thread left.
 */
@Timeout(60)
class ChunkSourceCancelTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    /** Starts a flow reading {@code source}, waits until its thread blocks in the read, cancels it. */
    private static void cancelWhileReading(ChunkSource source, Closeable unblock) throws Exception {
        Flow flow = Flow.start(Pipeline.of(source, Nodes.sink((Chunk c) -> c.release())));
        try {
            Thread reader = awaitBlockedReader();
            flow.cancel();
            try {
                assertThrows(FlowException.class, () -> flow.join(DEADLINE));
            } catch (AssertionError e) {
                if (e.getCause() instanceof TimeoutException) {
                    throw new AssertionError("the cancelled flow still waits for the read after " + DEADLINE + ":\n"
                            + stack(reader), e);
                }
                throw e;
            }
            assertTrue(!reader.isAlive(), "the reading thread is left: " + reader);
            assertEquals(0, source.chunks());
        } finally {
            unblock.close(); // a failed test leaves no thread behind either
            flow.close();
        }
    }

    /** The source's thread, once it is inside the read (a thread of the flow's, blocked or waiting, in a read frame). */
    private static Thread awaitBlockedReader() throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < until) {
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                if (!e.getKey().getName().contains("chunk-source")) {
                    continue;
                }
                for (StackTraceElement f : e.getValue()) {
                    if (f.getClassName().equals(ChunkSource.class.getName()) && f.getMethodName().equals("generate")) {
                        StackTraceElement top = e.getValue()[0];
                        if (!top.getClassName().startsWith("org.bbflow")) {
                            return e.getKey(); // below generate, in the input's read
                        }
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the source never reached its read");
    }

    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder(t.toString());
        for (StackTraceElement f : t.getStackTrace()) {
            b.append("\n\tat ").append(f);
        }
        return b.toString();
    }

    @Test
    void aPipeChannelThatNeverDeliversIsCancelled() throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SinkChannel writer = pipe.sink()) {
            cancelWhileReading(ChunkSource.of(pipe.source(), 4096, 2, 8), pipe.source());
        }
    }

    @Test
    void aSocketStreamThatNeverDeliversIsCancelled() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            cancelWhileReading(ChunkSource.of(accepted.getInputStream(), 4096, 2, 8), accepted);
        }
    }

    /** A stream whose read ignores interrupts and returns only once it is closed (as a socket's does). */
    @Test
    void aStreamThatIgnoresInterruptsIsClosedByTheCancel() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        InputStream stubborn = new InputStream() {
            @Override
            public int read() throws IOException {
                boolean interrupted = false;
                while (true) {
                    try {
                        closed.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true; // ignored, as a blocking java.io read does
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("stream closed");
            }

            @Override
            public void close() {
                closed.countDown();
            }
        };
        cancelWhileReading(ChunkSource.of(stubborn, 4096, 2, 8), stubborn);
    }

    /** A FileInputStream of a named pipe no one writes to: read through its (interruptible) channel. */
    @Test
    void aFifoThatNeverDeliversIsCancelled(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("fifo");
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            Assumptions.abort("no mkfifo here: " + e);
            return;
        }
        Assumptions.assumeTrue(mk.waitFor() == 0 && Files.exists(fifo), "mkfifo failed");
        List<Closeable> open = new ArrayList<>();
        try (RandomAccessFile writer = new RandomAccessFile(fifo.toFile(), "rw")) { // a writer that writes nothing
            FileInputStream in = new FileInputStream(fifo.toFile()); // does not block: the writer is there
            open.add(in);
            cancelWhileReading(ChunkSource.of(in, 4096, 2, 8), writer);
        } finally {
            for (Closeable c : open) {
                c.close();
            }
        }
    }
}
