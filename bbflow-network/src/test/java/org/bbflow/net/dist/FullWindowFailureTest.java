package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.bbflow.core.Block;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One side of a channel between groups fails while the other side waits for room in that channel's
 * window (credit-based flow control): the waiting side wakes and its group fails with the cause well
 * within the job's peer timeout (30 s here), in each direction a channel of a job can have: the
 * master's tasks to a group, a group's results to the master, and a linked stage's items to the next
 * group. The failing node waits until a sender is seen parked for window, so the failure always meets
 * a full window.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FullWindowFailureTest {
    private static final int ITEM = 16 << 10;
    private static final int ITEMS = 4_000;
    private static final long BOUND_MS = 8_000;

    private static JobSpec spec(String... groups) {
        return DistributedJobTest.onSlicePorts(groups).peerTimeout(Duration.ofSeconds(30)).livenessTimeout(Duration.ofSeconds(1))
                .build();
    }

    private static Block<Void, byte[]> source() {
        return Nodes.source((Outbox<byte[]> out) -> {
            for (int i = 0; i < ITEMS; i++) {
                out.send(new byte[ITEM]);
            }
        });
    }

    /** A node that holds its first item until {@code go}, then fails. */
    private static <T> Node<T, T> failsOn(CountDownLatch go, String what) {
        return new Node<>() {
            @Override
            public void onItem(T item, Outbox<T> out) throws InterruptedException {
                go.await(20, TimeUnit.SECONDS);
                throw new IllegalStateException(what);
            }
        };
    }

    /**
     * Waits (at most 10 s) until a thread of this JVM waits for window in a {@code RemoteOutlet} with
     * a frame of {@code sender} below it on its stack.
     */
    private static void awaitParkedForWindow(String sender) {
        Predicate<StackTraceElement[]> parked = st -> {
            boolean window = false;
            for (StackTraceElement e : st) {
                window |= e.getClassName().equals("org.bbflow.net.RemoteOutlet") && e.getMethodName().equals("nextBatch");
                if (window && e.getClassName().startsWith(sender)) {
                    return true;
                }
            }
            return false;
        };
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (Thread.getAllStackTraces().values().stream().anyMatch(parked)) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no sender of " + sender + " ever waited for window");
    }

    /** Waits for the group's outcome and checks that it failed within the bound, with {@code cause} in its messages. */
    private static void failsSoon(LocalJob<?> local, String group, long t0, String cause) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> local.result(group, Duration.ofSeconds(40)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        String all = LocalJobTest.messages(e);
        assertTrue(ms < BOUND_MS, () -> group + " failed " + ms + " ms after the failure: " + all);
        if (cause != null) {
            assertTrue(all.contains(cause), () -> group + ": " + all);
        }
    }

    @Test
    void aGroupFailingWhileTheMasterWaitsForItsTaskWindow() {
        CountDownLatch go = new CountDownLatch(1);
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1"), job -> {
            var farm = job.farm("tasks", () -> failsOn(go, "w1 fails"), Codec.bytes(), Codec.bytes(), Placement.of("w1"));
            job.run(Pipeline.of(source(), farm, Nodes.sink((byte[] b) -> { })));
            return null;
        })) {
            awaitParkedForWindow("org.bbflow.net.dist.RemoteWorker");
            long t0 = System.nanoTime();
            go.countDown();
            failsSoon(local, "m", t0, "w1 fails");
            failsSoon(local, "w1", t0, "w1 fails");
        }
    }

    /** The same with a farm that re-sends a lost worker's tasks: its lane waits for window, and a failing worker still fails the job. */
    @Test
    void aGroupOfAResendingFarmFailingWhileTheMasterWaitsForItsTaskWindow() {
        CountDownLatch go = new CountDownLatch(1);
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1"), job -> {
            var farm = job.farm("tasks", () -> failsOn(go, "w1 fails"), Codec.bytes(), Codec.bytes(), Placement.of("w1"),
                    WorkerLoss.RESEND_TASKS);
            job.run(Pipeline.of(source(), farm, Nodes.sink((byte[] b) -> { })));
            return null;
        })) {
            awaitParkedForWindow("org.bbflow.net.dist.TaskLane");
            long t0 = System.nanoTime();
            go.countDown();
            failsSoon(local, "m", t0, "w1 fails");
            failsSoon(local, "w1", t0, "w1 fails");
        }
    }

    /**
     * The master's part failing (here given up, as when its launcher is gone: its flow is cancelled)
     * while a re-sending farm's lane waits for its group's task window: the job fails at once, and
     * the group, which is alive and failed nothing, is not counted lost.
     */
    @Test
    void theMasterFailingWhileAResendingLaneWaitsForItsTaskWindow() {
        for (int round = 0; round < 3; round++) { // without the fix the live group was counted lost in about half the runs
            CountDownLatch hold = new CountDownLatch(1);
            try (LocalJob<Object> local = LocalJob.start(spec("m", "w1"), job -> {
                var farm = job.farm("tasks", () -> new Node<byte[], byte[]>() {
                    @Override
                    public void onItem(byte[] item, Outbox<byte[]> out) throws InterruptedException {
                        hold.await(20, TimeUnit.SECONDS); // a slow worker: the master's lane fills its window
                        out.send(item);
                    }
                }, Codec.bytes(), Codec.bytes(), Placement.of("w1"), WorkerLoss.RESEND_TASKS);
                job.run(Pipeline.of(source(), farm, Nodes.sink((byte[] b) -> { })));
                return null;
            })) {
                awaitParkedForWindow("org.bbflow.net.dist.TaskLane");
                long t0 = System.nanoTime();
                local.part("m").abandon("the test gives the master's part up");
                failsSoon(local, "m", t0, null);
                failsSoon(local, "w1", t0, null);
                int r = round;
                assertEquals(Set.of(), local.part("m").lostGroups(), () -> "round " + r);
            } finally {
                hold.countDown();
            }
        }
    }

    @Test
    void theMasterFailingWhileAGroupWaitsForItsResultWindow() {
        CountDownLatch go = new CountDownLatch(1);
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1"), job -> {
            var farm = job.farm("tasks", () -> Nodes.<byte[]>identity(), Codec.bytes(), Codec.bytes(), Placement.of("w1"));
            job.run(Pipeline.of(source(), farm, failsOn(go, "the master's sink fails")));
            return null;
        })) {
            awaitParkedForWindow("org.bbflow.net.dist.GroupOutlet");
            long t0 = System.nanoTime();
            go.countDown();
            failsSoon(local, "m", t0, "the master's sink fails");
            failsSoon(local, "w1", t0, null);
        }
    }

    @Test
    void aLinkedStageFailingWhileThePreviousGroupWaitsForItsWindow() {
        CountDownLatch go = new CountDownLatch(1);
        try (LocalJob<Object> local = LocalJob.start(spec("m", "w1", "w2"), job -> {
            Block<byte[], byte[]> a = job.stage("a", () -> Nodes.<byte[]>identity(), Codec.bytes(), Codec.bytes(), "w1");
            Block<byte[], byte[]> b = job.stage("b", () -> failsOn(go, "w2 fails"), Codec.bytes(), Codec.bytes(), "w2");
            job.run(Pipeline.of(source(), a, b, Nodes.sink((byte[] x) -> { })));
            return null;
        })) {
            awaitParkedForWindow("org.bbflow.net.dist.GroupOutlet");
            long t0 = System.nanoTime();
            go.countDown();
            failsSoon(local, "m", t0, "w2 fails");
            failsSoon(local, "w1", t0, null);
            failsSoon(local, "w2", t0, "w2 fails");
        }
    }
}
