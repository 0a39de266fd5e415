package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class FarmTest {

    private static List<Long> sorted(List<Long> l) {
        List<Long> c = new ArrayList<>(l);
        Collections.sort(c);
        return c;
    }

    /** A worker recording, per worker index, what it saw; slow on some items to shuffle timing. */
    static Node<Long, Long> recordingWorker(Map<Integer, List<Long>> seen) {
        return new Node<>() {
            int index;

            @Override
            public void init(NodeContext context) {
                index = context.workerIndex();
            }

            @Override
            public void onItem(Long x, Outbox<Long> out) {
                seen.computeIfAbsent(index, k -> Collections.synchronizedList(new ArrayList<>())).add(x);
                if (x % 7 == 0) {
                    long end = System.nanoTime() + 50_000;
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                }
                out.send(x * 10);
            }
        };
    }

    @Test
    void roundRobinGivesEachWorkerEveryNthItem() {
        Map<Integer, List<Long>> seen = new ConcurrentHashMap<>();
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(0, 299), Farm.of(3, () -> recordingWorker(seen)), out.sink()));
        for (int w = 0; w < 3; w++) {
            List<Long> expected = new ArrayList<>();
            for (long i = w; i < 300; i += 3) {
                expected.add(i);
            }
            assertEquals(expected, seen.get(w), "worker " + w);
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            expected.add(i * 10);
        }
        assertEquals(expected, sorted(out.get()));
    }

    @RepeatedTest(5)
    void orderedFarmKeepsInputOrder() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(0, 2_999),
                Farm.of(4, () -> recordingWorker(new ConcurrentHashMap<>())).ordered(), out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 3_000; i++) {
            expected.add(i * 10);
        }
        assertEquals(expected, out.get());
    }

    @RepeatedTest(5)
    void orderedFarmWithFiltersAndExpansionsKeepsOrder() {
        // workers drop multiples of 3 and expand multiples of 5 into three items: order must hold per unit
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(0, 1_999),
                Farm.of(3, () -> Pipeline.of(
                        Nodes.<Long>filter(x -> x % 3 != 0),
                        Nodes.<Long, Long>flatMap((x, o) -> {
                            o.send(x);
                            if (x % 5 == 0) {
                                o.send(-x);
                                o.send(x + 1_000_000);
                            }
                        }))).ordered(),
                out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long x = 0; x < 2_000; x++) {
            if (x % 3 != 0) {
                expected.add(x);
                if (x % 5 == 0) {
                    expected.add(-x);
                    expected.add(x + 1_000_000);
                }
            }
        }
        assertEquals(expected, out.get());
    }

    @Test
    void onDemandDeliversEverythingAndFavoursTheFreeWorker() {
        Map<Integer, List<Long>> seen = new ConcurrentHashMap<>();
        Runs.Collector<Long> out = new Runs.Collector<>();
        // Worker 0 is busy: it holds its first item until the two others have taken 450 items between
        // them, which on demand they get (a round-robin emitter would wait on worker 0's full channel).
        // So worker 0 gets at most 150, fewer than half the others' 450 or more, whatever the threads'
        // speeds. (Worker 0 used to be only slower, by a 1 ms sleep an item: on a loaded host the fast
        // workers, descheduled, could be as slow, and the count depended on the scheduler.)
        CountDownLatch othersTook450 = new CountDownLatch(450);
        Runs.run(Pipeline.of(Nodes.range(0, 599), Farm.of(3, () -> new Node<Long, Long>() {
            int index;
            boolean first = true;

            @Override
            public void init(NodeContext c) {
                index = c.workerIndex();
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) throws Exception {
                seen.computeIfAbsent(index, k -> Collections.synchronizedList(new ArrayList<>())).add(x);
                if (index == 0) {
                    if (first) {
                        first = false;
                        assertTrue(othersTook450.await(20, TimeUnit.SECONDS),
                                "the other workers did not get 450 items while worker 0 was busy");
                    }
                } else {
                    othersTook450.countDown();
                }
                o.send(x);
            }
        }).dispatch(Dispatch.onDemand()).channels(ChannelSpec.bounded(2)), out.sink()));
        assertEquals(Runs.range(0, 599), sorted(out.get()));
        int slow = seen.getOrDefault(0, List.of()).size();
        int fast = seen.get(1).size() + seen.get(2).size();
        assertTrue(slow < fast / 2, "slow worker got " + slow + ", fast ones " + fast);
    }

    @Test
    void broadcastSendsEveryItemToEveryWorker() {
        Map<Integer, List<Long>> seen = new ConcurrentHashMap<>();
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 50), Farm.of(4, () -> recordingWorker(seen)).dispatch(Dispatch.broadcast()),
                out.sink()));
        for (int w = 0; w < 4; w++) {
            assertEquals(Runs.range(1, 50), seen.get(w));
        }
        assertEquals(200, out.get().size());
    }

    @Test
    void byKeySendsEqualKeysToTheSameWorker() {
        Map<Integer, List<Long>> seen = new ConcurrentHashMap<>();
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(0, 999), Nodes.map((Long x) -> x % 17),
                Farm.of(4, () -> recordingWorker(seen)).dispatch(Dispatch.<Long>byKey(x -> x)), out.sink()));
        Map<Long, Integer> owner = new HashMap<>();
        int total = 0;
        for (Map.Entry<Integer, List<Long>> e : seen.entrySet()) {
            for (Long k : e.getValue()) {
                Integer prev = owner.put(k, e.getKey());
                assertTrue(prev == null || prev.equals(e.getKey()), "key " + k + " went to workers " + prev + " and " + e.getKey());
                total++;
            }
        }
        assertEquals(1000, total);
        assertEquals(17, owner.size());
        assertTrue(new HashSet<>(owner.values()).size() > 1, "all keys on one worker");
    }

    @Test
    void scatterAndGatherSplitAndRejoinCollections() {
        Runs.Collector<List<List<Long>>> out = new Runs.Collector<>();
        Source<List<Long>> src = Nodes.source(o -> {
            o.send(Runs.range(1, 10));
            o.send(Runs.range(11, 13));
        });
        Runs.run(Pipeline.of(src,
                Farm.of(3, () -> Nodes.<List<Long>, List<Long>>map(chunk -> chunk))
                        .dispatch(Dispatch.scatter()).collect(Collect.GATHER),
                Nodes.<List<List<Long>>>sink(out.items::add)));
        assertEquals(List.of(
                List.of(Runs.range(1, 4), Runs.range(5, 7), Runs.range(8, 10)),
                List.of(List.of(11L), List.of(12L), List.of(13L))), out.get());
    }

    @Test
    void scatterToASingleWorkerSendsTheWholeCollectionAsOneChunk() {
        // a worker count derived from cores may be 1: scatter then sends one chunk, not a refusal
        Runs.Collector<Object> out = new Runs.Collector<>();
        Source<Object> src = Nodes.source(o -> {
            o.send(Runs.range(1, 3));
            o.send(new Object[] {"a", "b"});
        });
        Runs.run(Pipeline.of(src, Farm.of(1, Nodes::identity).dispatch(Dispatch.scatter()), Nodes.sink(out.items::add)));
        assertEquals(List.of(Runs.range(1, 3), List.of("a", "b")), out.get());
    }

    @Test
    void roundRobinCollectorReadsWorkersInTurn() {
        // with round-robin dispatch and collection, a farm is order-preserving when each item gives one result
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(0, 999),
                Farm.of(3, () -> recordingWorker(new ConcurrentHashMap<>())).collect(Collect.ROUND_ROBIN), out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            expected.add(i * 10);
        }
        assertEquals(expected, out.get());
    }

    @Test
    void collectorKnowsWhichWorkerSent() {
        Map<Integer, Set<Long>> byInput = new ConcurrentHashMap<>();
        Runs.run(Pipeline.of(Nodes.range(0, 89), Farm.of(3, () -> Nodes.map((Long x) -> x))
                .collector(new Node<Long, Void>() {
                    NodeContext ctx;

                    @Override
                    public void init(NodeContext c) {
                        ctx = c;
                        assertEquals(3, c.inputCount());
                    }

                    @Override
                    public void onItem(Long x, Outbox<Void> o) {
                        byInput.computeIfAbsent(ctx.inputIndex(), k -> ConcurrentHashMap.newKeySet()).add(x);
                    }
                })));
        for (int w = 0; w < 3; w++) {
            for (Long x : byInput.get(w)) {
                assertEquals(w, x % 3, "item " + x + " reported from input " + w);
            }
        }
    }

    @Test
    void farmWithoutCollectorFeedsTheNextStageFromEveryWorker() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 100), Farm.of(3, () -> Nodes.map((Long x) -> x + 1)).withoutCollector(),
                out.sink()));
        assertEquals(Runs.range(2, 101), sorted(out.get()));
        assertEquals(6, s.nodes().size()); // range, emitter, 3 workers, sink
    }

    @Test
    void farmWithoutEmitterTakesInputOnEveryWorker() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 100), Farm.of(4, () -> Nodes.map((Long x) -> x + 1)).withoutEmitter(),
                out.sink()));
        assertEquals(Runs.range(2, 101), sorted(out.get()));
        assertEquals(7, s.nodes().size()); // range, 4 workers, collector, sink
    }

    @Test
    void customEmitterAndCollectorReplaceTheDefaults() {
        // the thesis's Code 21: the emitter generates, the collector prints where items came from
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Source<Long> emitter = Nodes.source(o -> {
            for (long i = 1; i <= 100; i++) {
                o.send(i);
            }
        });
        Farm<Long, Void> farm = Farm.<Long, Long>of(3, () -> Nodes.map((Long x) -> x * 2))
                .emitter(emitter)
                .collector(new Node<Long, Void>() {
                    NodeContext c;

                    @Override
                    public void init(NodeContext c) {
                        this.c = c;
                    }

                    @Override
                    public void onItem(Long x, Outbox<Void> o) {
                        lines.add(x + "@" + c.inputIndex());
                    }
                });
        Runs.run(farm);
        assertEquals(100, lines.size());
        for (String l : lines) {
            long x = Long.parseLong(l.substring(0, l.indexOf('@')));
            int from = Integer.parseInt(l.substring(l.indexOf('@') + 1));
            assertEquals((x / 2 - 1) % 3, from, l);
        }
    }

    @Test
    void farmOfPipelinesAndPipelineOfFarmsNest() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 1000),
                Farm.of(2, () -> Pipeline.of(Nodes.map((Long x) -> x + 1), Farm.of(2, () -> Nodes.map((Long x) -> x * 2)))),
                Farm.of(3, () -> Nodes.map((Long x) -> x - 2)).ordered(),
                out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 1000; i++) {
            expected.add((i + 1) * 2 - 2);
        }
        assertEquals(expected, sorted(out.get()));
    }
}
