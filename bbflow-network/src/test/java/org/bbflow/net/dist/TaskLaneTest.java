package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteChannelException;
import org.bbflow.net.RemoteOutlet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lane of a farm that re-sends a lost worker's tasks is closed by the thread that declares its
 * group lost, while a stand-in (or a re-send) may be in the middle of a send on it. The outlet's
 * batch buffer is the sending thread's: closed under it, the buffer was freed while that thread still
 * encoded into it, and the send failed with Netty's {@code IllegalReferenceCountException} instead of
 * the channel's failure: nothing on the stand-in's path expects that, so the master's flow failed
 * instead of re-sending the lost group's tasks. The send is held in its encoder here, so the close
 * always lands inside it (the test fails in every run without the fix).
 */
@Timeout(60)
class TaskLaneTest {

    /** Longs whose encoding waits, once, until the test lets it go on (bounded). */
    private static final class HeldCodec implements Codec<Object> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);

        @Override
        public void encode(Object item, ByteBuf out) {
            entered.countDown();
            try {
                if (!proceed.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the encoder go on");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.writeLong((Long) item);
        }

        @Override
        public Object decode(ByteBuf in) {
            return in.readLong();
        }

        @Override
        public int maxEncodedSize(Object item) {
            return 8; // straight into the batch buffer
        }
    }

    @Test
    void closingALaneWaitsForASendInProgress() throws Exception {
        HeldCodec codec = new HeldCodec();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults())) {
            NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults());
            @SuppressWarnings("unchecked")
            Codec<Object> results = (Codec<Object>) (Codec<?>) Codec.longs();
            TaskLane lane = new TaskLane("f", 0, "w1", 1, codec, results);
            lane.open(client, server.inlet(lane.resultId, results), new FarmLedger("f"));

            AtomicReference<Throwable> sendFailure = new AtomicReference<>();
            Thread sender = new Thread(() -> {
                try {
                    lane.send(7L);
                } catch (RemoteChannelException expected) {
                    // the channel's own failure: what a lost lane's send may see
                } catch (Throwable t) {
                    sendFailure.set(t);
                }
            }, "stand-in");
            sender.start();
            assertTrue(codec.entered.await(30, TimeUnit.SECONDS));

            client.close(); // the lost group's connection first, as the master's loss handling does
            Thread closer = new Thread(() -> {
                try {
                    lane.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "loss-handler");
            closer.start();
            // a close that does not wait for the send ends in this second (it did before the fix);
            // one that waits cannot end before the encoder goes on, however slow the machine
            closer.join(1_000);
            boolean closedUnderTheSend = !closer.isAlive();
            codec.proceed.countDown();
            sender.join(30_000);
            closer.join(30_000);
            assertFalse(sender.isAlive() || closer.isAlive(), "the send or the close did not end");
            assertNull(sendFailure.get(), () -> "the send failed with " + sendFailure.get());
            assertFalse(closedUnderTheSend, "the lane closed its outlet while a send was in it");
        } // and the buffer is freed exactly once: LeakCheck fails the class otherwise
    }

    /**
     * The lane's reader stops at the first end-of-task mark after its group was declared lost, which
     * is usually in the middle of a frame of the group's results; the frame in hand was never freed
     * (the lane is closed later from another thread, which leaves a consumer's frame alone). Netty's
     * paranoid leak detection (see {@code LeakCheck}) fails the class without the fix.
     */
    @Test
    void aReaderThatStopsForALostLaneFreesTheFrameInHand() throws Exception {
        @SuppressWarnings("unchecked")
        Codec<Object> longs = (Codec<Object>) (Codec<?>) Codec.longs();
        Codec<Object> marked = new TaskMarks(longs);
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), NetOptions.defaults())) {
            TaskLane lane = new TaskLane("f", 0, "w1", 1, longs, marked);
            assertTrue(lane.markLost().isEmpty()); // declared lost before its results come in
            lane.open(client, server.inlet(lane.resultId, marked), new FarmLedger("f"));
            try (RemoteOutlet<Object> results = NetClient.outlet("127.0.0.1", server.port(), lane.resultId, marked,
                    NetOptions.defaults())) {
                for (long i = 0; i < 100; i++) {
                    results.send(i);
                    results.send(TaskMarks.TASK_DONE); // 100 tasks' results in one frame (~1 KB)
                }
                results.complete(); // the inlet has them all (queued)
            }
            assertTrue(lane.awaitEnd(30_000), "the reader did not stop at the lost lane's first mark");
            lane.close();
        } // the frame the reader stopped in: freed, or LeakCheck fails the class
    }

    /**
     * A lane's reader that noticed its lane failed re-sends the lane's unfinished tasks to another
     * lane, and waits there for window (the other group is slow); meanwhile its own lane is closed
     * (the liveness watch declares its group lost, or the job ends). The close interrupted the reader
     * even though it no longer read, the interrupted send was taken for a failure of the lane it sent
     * TO, and a live group was counted lost (its tasks re-sent, here to nobody: the farm failed). The
     * re-send is held in the other lane's window by a receiver that does not read until the close
     * has returned, so the close always lands inside it.
     */
    @Test
    @SuppressWarnings("unchecked")
    void closingALaneWhoseReaderReSendsItsTasksLeavesTheLaneItSendsToAlive() throws Exception {
        Codec<Object> bytes = (Codec<Object>) (Codec<?>) Codec.bytes();
        Codec<Object> marked = new TaskMarks((Codec<Object>) (Codec<?>) Codec.longs());
        // a window of 64 KB: one 40 KB task fills it until the receiver reads
        NetOptions small = NetOptions.defaults().withWindowBytes(64 << 10);
        java.util.Set<String> lostGroups = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (NetServer server = NetServer.bind("127.0.0.1", 0, NetOptions.defaults());
             NetClient client = NetClient.connect("127.0.0.1", server.port(), small);
             GroupReports reports = new GroupReports(server, java.util.Map.of())) {
            FarmLedger ledger = new FarmLedger("f");
            TaskLane lost = ledger.add(new TaskLane("f", 0, "w1", 1, bytes, marked));
            TaskLane alive = ledger.add(new TaskLane("f", 1, "w2", 1, bytes, marked));
            ledger.prepare(reports, lostGroups); // no report from either group: a failed lane is a lost one
            var lostTasks = server.inlet(ChannelIds.idOf(ChannelIds.tasks("f", 0), 1), bytes);
            var aliveTasks = server.inlet(ChannelIds.idOf(ChannelIds.tasks("f", 1), 1), bytes);
            lost.open(client, server.inlet(lost.resultId, marked), ledger);
            alive.open(client, server.inlet(alive.resultId, marked), ledger);
            try {
                byte[] first = new byte[40 << 10];
                byte[] orphan = new byte[40 << 10];
                orphan[0] = 1;
                assertTrue(alive.send(first)); // the alive lane's window is full from now on
                assertTrue(lost.send(orphan)); // unfinished on the lane about to fail
                // the lost lane's group aborts its results: its reader fails the lane and re-sends the orphan
                NetClient.outlet("127.0.0.1", server.port(), lost.resultId, marked, NetOptions.defaults()).close();
                awaitParkedForWindow("bbflow-results-" + lost.name);

                lost.close(); // before the fix: the reader was interrupted in the alive lane's window
                assertFalse(alive.isLost(), () -> "the live lane was counted lost; lost groups " + lostGroups);
                assertEquals(java.util.Set.of("w1"), lostGroups);

                // the alive group reads on: the orphan reaches it, after the task it had (an interrupted
                // re-send that gave up would leave it nowhere: bounded, so that fails instead of hanging)
                var received = java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> java.util.List.of(aliveTasks.take(), aliveTasks.take()));
                java.util.List<Object> both;
                try {
                    both = received.get(20, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("the orphan never reached the live lane (its re-send gave up)");
                }
                assertArrayEquals(first, (byte[]) both.get(0));
                assertArrayEquals(orphan, (byte[]) both.get(1));
                assertFalse(alive.isLost());
            } finally {
                lost.close();
                alive.close();
                lostTasks.close(); // the frames queued in them are freed (also when an assertion failed)
                aliveTasks.close();
            }
        } // and every buffer freed exactly once: LeakCheck fails the class otherwise
    }

    /** Waits (at most 10 s) until the thread named {@code name} waits for window in a {@code RemoteOutlet}. */
    private static void awaitParkedForWindow(String name) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            for (var e : Thread.getAllStackTraces().entrySet()) {
                if (e.getKey().getName().equals(name)) {
                    for (StackTraceElement f : e.getValue()) {
                        if (f.getClassName().equals("org.bbflow.net.RemoteOutlet") && f.getMethodName().equals("nextBatch")) {
                            return;
                        }
                    }
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError(name + " never waited for window");
    }
}
