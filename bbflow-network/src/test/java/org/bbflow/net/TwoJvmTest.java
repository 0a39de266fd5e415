package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Flow;
import org.bbflow.core.FlowException;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A pipeline whose middle stage runs in a child JVM started by the test. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoJvmTest {

    /** A started child JVM running {@link ChildStage}; its output is echoed and the PORT line captured. */
    static final class Child implements AutoCloseable {
        final Process process;
        final CompletableFuture<Integer> port = new CompletableFuture<>();
        final StringBuilder output = new StringBuilder();
        final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();

        Child(List<String> command) throws Exception {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (output) {
                            output.append(line).append('\n');
                        }
                        lines.offer(line);
                        if (line.startsWith("PORT ")) port.complete(Integer.parseInt(line.substring(5).trim()));
                    }
                } catch (Exception ignored) {
                    // process gone
                }
                port.completeExceptionally(new IllegalStateException("child ended without PORT:\n" + output));
            }, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child stage(String parentHost, int parentPort, long timeoutMs) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            return new Child(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    ChildStage.class.getName(), "127.0.0.1", parentHost, String.valueOf(parentPort), String.valueOf(timeoutMs)));
        }

        /** Sends one line to the child's standard input. */
        void send(String line) throws java.io.IOException {
            process.getOutputStream().write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        }

        /** The next output line starting with {@code prefix} (earlier other lines are skipped); fails after {@code seconds}. */
        String await(String prefix, long seconds) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            for (long left; (left = end - System.nanoTime()) > 0; ) {
                String line = lines.poll(left, TimeUnit.NANOSECONDS);
                if (line != null && line.startsWith(prefix)) return line;
            }
            throw new AssertionError("child said no '" + prefix + "' within " + seconds + " s; output:\n" + output);
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    @Test
    void middleStageInAChildJvm() throws Exception {
        long n = 2_000_000;
        NetOptions opts = NetOptions.defaults();
        try (NetServer results = NetServer.bind("127.0.0.1", 0, opts);
             Child child = Child.stage("127.0.0.1", results.port(), 10_000)) {
            AtomicLong count = new AtomicLong();
            AtomicLong sum = new AtomicLong();
            Flow back = Flow.start(Pipeline.of(RemoteBlocks.inlet(results, 2, Codec.longs()), Nodes.sink((Long y) -> {
                long k = count.getAndIncrement();
                if (y != 2 * (k + 1) + 1) throw new AssertionError("item " + k + " came back as " + y);
                sum.addAndGet(y);
            })));
            int childPort = child.port.get(60, TimeUnit.SECONDS);
            Pipeline.of(Nodes.range(1, n), RemoteBlocks.outlet("127.0.0.1", childPort, 1, Codec.longs(), opts)).run();
            back.join();
            assertEquals(n, count.get());
            assertEquals(n * (n + 1) + n, sum.get()); // sum of 2x+1 for x in 1..n
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS), "child exits after end of stream");
            assertEquals(0, child.process.exitValue(), child.output.toString());
        }
    }

    @Test
    void killedChildFailsBothFlowsWithinTheTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        NetOptions opts = NetOptions.defaults().withPeerTimeout(timeout).withHeartbeat(Duration.ofMillis(250));
        try (NetServer results = NetServer.bind("127.0.0.1", 0, opts);
             Child child = Child.stage("127.0.0.1", results.port(), 30_000)) {
            AtomicLong count = new AtomicLong();
            CompletableFuture<Void> halfway = new CompletableFuture<>();
            Flow back = Flow.start(Pipeline.of(RemoteBlocks.inlet(results, 2, Codec.longs()), Nodes.sink((Long y) -> {
                if (count.incrementAndGet() == 100_000) halfway.complete(null);
            })));
            int childPort = child.port.get(60, TimeUnit.SECONDS);
            Flow forth = Flow.start(Pipeline.of(Nodes.range(1, Long.MAX_VALUE),
                    RemoteBlocks.outlet("127.0.0.1", childPort, 1, Codec.longs(), opts)));
            halfway.get(60, TimeUnit.SECONDS);
            long t0 = System.nanoTime();
            child.process.destroyForcibly().waitFor();
            FlowException a = assertThrows(FlowException.class, forth::join);
            FlowException b = assertThrows(FlowException.class, back::join);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(hasRemoteCause(a), () -> "sender side: " + a);
            assertTrue(hasRemoteCause(b), () -> "receiver side: " + b);
            assertTrue(ms < timeout.toMillis() + 5000, "both ends failed after " + ms + " ms");
        }
    }

    static boolean hasRemoteCause(Throwable t) {
        for (; t != null; t = t.getCause()) if (t instanceof RemoteChannelException) return true;
        return false;
    }
}
