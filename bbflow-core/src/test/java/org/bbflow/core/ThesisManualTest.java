package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The programs of the thesis's manual (Appendix A), re-expressed in BBFlow, with their outputs asserted. */
@Timeout(120)
class ThesisManualTest {

    private static List<Long> doubled(int n) {
        List<Long> l = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            l.add(2 * i);
        }
        return l;
    }

    private static <T extends Comparable<T>> List<T> sorted(List<T> l) {
        List<T> c = new ArrayList<>(l);
        Collections.sort(c);
        return c;
    }

    /** Code 17: a generator and a doubling stage. */
    @Test
    void twoStagePipeline() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 100), Nodes.map((Long x) -> x * 2)).then(out.sink()));
        assertEquals(doubled(100), out.get());
    }

    /** Code 16: two nodes joined by a channel the user created and wired by hand (here: two flows). */
    @Test
    void manualChannelWiring() {
        Channel<Long> wire = Channel.spsc(16);
        Runs.Collector<Long> out = new Runs.Collector<>();
        Flow producer = Flow.start(Pipeline.of(Nodes.range(1, 1000), Nodes.map((Long x) -> x * 2), Nodes.toChannel(wire))
                .named("producer"));
        Flow consumer = Flow.start(Pipeline.of(Nodes.fromChannel(wire), out.sink()).named("consumer"));
        producer.join();
        consumer.join();
        assertEquals(doubled(1000), out.get());
        assertTrue(wire.isEos());
    }

    /** Code 20: generator, farm of three doubling workers, printing filter. */
    @Test
    void complexPipelineWithFarm() {
        List<String> printed = Collections.synchronizedList(new ArrayList<>());
        Runs.run(Pipeline.of(Nodes.range(1, 100), Farm.of(3, () -> Nodes.map((Long x) -> x * 2)),
                Nodes.sink((Long x) -> printed.add("Received item " + x))));
        List<String> expected = new ArrayList<>();
        doubled(100).forEach(x -> expected.add("Received item " + x));
        assertEquals(sorted(expected), sorted(printed));
    }

    /** Code 21 and 22: emitter and collector replaced, on a default farm and on an empty one. */
    @Test
    void replacedAndCustomEmitterCollector() {
        for (boolean empty : new boolean[] {false, true}) {
            List<Long> received = Collections.synchronizedList(new ArrayList<>());
            List<Integer> channels = Collections.synchronizedList(new ArrayList<>());
            Source<Long> emitter = Nodes.source(o -> {
                for (long i = 1; i <= 100; i++) {
                    o.send(i);
                }
            });
            Node<Long, Void> collector = new Node<>() {
                NodeContext c;

                @Override
                public void init(NodeContext c) {
                    this.c = c;
                }

                @Override
                public void onItem(Long x, Outbox<Void> o) {
                    received.add(x);
                    channels.add(c.inputIndex());
                }
            };
            Farm<Long, Long> farm;
            if (empty) {
                farm = Farm.empty();
                for (int i = 0; i < 3; i++) {
                    farm.addWorker(Nodes.map((Long x) -> x * 2));
                }
            } else {
                farm = Farm.of(3, () -> Nodes.map((Long x) -> x * 2));
            }
            Runs.run(farm.emitter(emitter).collector(collector));
            assertEquals(doubled(100), sorted(received));
            assertEquals(List.of(0, 1, 2), sorted(new ArrayList<>(new java.util.HashSet<>(channels))));
        }
    }

    /** Code 23: three-stage pipeline built from two stages plus an appended one. */
    @Test
    void threeStagePipeline() {
        Runs.Collector<String> out = new Runs.Collector<>();
        Pipeline<Void, Long> p = Pipeline.of(Nodes.range(1, 100), Nodes.map((Long x) -> x * 2));
        Runs.run(p.then(Nodes.map((Long x) -> "Received item " + x)).then(out.sink()));
        assertEquals(100, out.get().size());
        assertEquals("Received item 2", out.get().get(0));
        assertEquals("Received item 200", out.get().get(99));
    }

    /**
     * Code 26, combine2: an emitter sending item i to worker i % 3; workers are two fused nodes; the
     * collector reports the channel and forwards; a last stage receives everything.
     */
    @Test
    void combine2() {
        List<String> filter1 = Collections.synchronizedList(new ArrayList<>());
        Runs.Collector<Long> filter2 = new Runs.Collector<>();
        Source<Long> emitter = Nodes.source(o -> {
            for (long i = 1; i <= 100; i++) {
                o.sendTo((int) (i % o.outputCount()), i);
            }
        });
        Farm<Long, Long> stage2 = Farm.empty();
        for (int w = 0; w < 3; w++) {
            stage2.addWorker(Comb.of(Nodes.<Long>identity(), Nodes.<Long>identity()));
        }
        Node<Long, Long> stage3 = new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                filter1.add("Received " + x + " from " + c.inputIndex());
                o.send(x);
            }
        };
        Runs.run(Pipeline.of(stage2.emitter(emitter).collector(stage3), filter2.sink()));
        assertEquals(Runs.range(1, 100), sorted(filter2.get()));
        for (String line : filter1) {
            String[] f = line.split(" ");
            assertEquals(Long.parseLong(f[1]) % 3, Long.parseLong(f[3]), line);
        }
    }

    /** Code 24/25: two farms combined into an all-to-all. */
    @Test
    void allToAllCombine() {
        Farm<Long, Long> f1 = Farm.of(2, () -> Nodes.map((Long x) -> x + 1));
        Farm<Long, Long> f2 = Farm.of(3, () -> Nodes.map((Long x) -> x * 2));
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Nodes.range(1, 100), Farm.combine(f1, f2, null, null, false), out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 100; i++) {
            expected.add((i + 1) * 2);
        }
        assertEquals(expected, sorted(out.get()));
    }

    /** A labelled packet, as in Code 28. */
    record Packet(long id, long value) {
    }

    /**
     * Code 28: an ordered farm by packet labels. Workers finish out of order; a node after the
     * first-come collector re-sorts by label; the output is in order.
     */
    @Test
    void orderedFarmByLabels() {
        Node<Packet, Packet> resequencer = new Node<>() {
            final TreeMap<Long, Packet> pending = new TreeMap<>();
            long lastId = 0;

            @Override
            public void onItem(Packet p, Outbox<Packet> o) {
                pending.put(p.id(), p);
                while (!pending.isEmpty() && pending.firstKey() == lastId + 1) {
                    o.send(pending.pollFirstEntry().getValue());
                    lastId++;
                }
            }

            @Override
            public void onEos(Outbox<Packet> o) {
                pending.values().forEach(o::send);
                pending.clear();
            }
        };
        Runs.Collector<Packet> out = new Runs.Collector<>();
        Source<Packet> generator = Nodes.source(o -> {
            for (long i = 1; i <= 2000; i++) {
                o.send(new Packet(i, i));
            }
        });
        Runs.run(Pipeline.of(generator, Farm.of(8, () -> Nodes.map((Packet p) -> {
            if (p.id() % 5 == 0) {
                Thread.sleep(0, 200_000);
            }
            return new Packet(p.id(), p.value() * 3);
        })), resequencer, Nodes.<Packet>sink(out.items::add)));
        List<Packet> got = out.get();
        assertEquals(2000, got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(i + 1, got.get(i).id());
            assertEquals(3L * (i + 1), got.get(i).value());
        }
    }
}
