package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/**
 * Several back edges into one stage (FastFlow's nested wrap_around): stages 2 and 3 both feed stage
 * 0. Oracle: item v is sent back {@code v % 3} times by stage 2 and {@code (v / 3) % 3} times by
 * stage 3, then leaves once; nothing is lost, nothing ends early, the flow ends by itself.
 */
@Timeout(120)
class NestedFeedbackTest {
    private static final long[] SEEDS = {5L, 1234L, 20261123L};
    private static final List<WaitStrategy> STRATEGIES =
            List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());

    static final class Item {
        final long value;
        int backFrom2;
        int backFrom3;
        int visits;

        Item(long value) {
            this.value = value;
        }
    }

    private static int backs2(long v) {
        return (int) (v % 3);
    }

    private static int backs3(long v) {
        return (int) ((v / 3) % 3);
    }

    @Test
    void stagesTwoAndThreeBothFeedStageZero() {
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            for (WaitStrategy ws : STRATEGIES) {
                System.out.println("NestedFeedbackTest seed=" + seed + " strategy=" + ws);
                Random random = new Random(seed);
                int items = 300 + random.nextInt(300);
                boolean yieldInStage1 = random.nextBoolean();
                AtomicLong fedBack = new AtomicLong();
                Runs.Collector<Item> out = new Runs.Collector<>();
                Node<Object, Item> s0 = new Node<>() {
                    NodeContext ctx;

                    @Override
                    public void init(NodeContext c) {
                        ctx = c;
                    }

                    @Override
                    public void onItem(Object x, Outbox<Item> o) {
                        if (ctx.fromFeedback()) {
                            fedBack.incrementAndGet();
                            o.send((Item) x);
                        } else {
                            o.send(new Item((Long) x));
                        }
                    }
                };
                Node<Item, Item> s1 = Nodes.map((Item t) -> {
                    t.visits++;
                    if (yieldInStage1 && t.value % 7 == 0) {
                        Thread.yield();
                    }
                    return t;
                });
                Node<Item, Item> s2 = Nodes.flatMap((Item t, Outbox<Item> o) -> {
                    if (t.backFrom2 < backs2(t.value)) {
                        t.backFrom2++;
                        o.send(t); // back to stage 0
                    } else {
                        o.sendTo(1, t); // forward to stage 3
                    }
                });
                Node<Item, Item> s3 = Nodes.flatMap((Item t, Outbox<Item> o) -> {
                    if (t.backFrom3 < backs3(t.value)) {
                        t.backFrom3++;
                        o.send(t); // back to stage 0
                    } else {
                        o.sendTo(1, t); // forward, out of the loop
                    }
                });
                Pipeline<Object, Item> loops = Pipeline.<Object, Item>of(Pipeline.of(s0, s1, s2).feedback(), s3).feedback();
                Runs.run(Pipeline.of(Nodes.range(1, items), loops, out.sink()), FlowOptions.defaults().waitStrategy(ws));
                List<String> expected = new ArrayList<>();
                long expectedBack = 0;
                for (long v = 1; v <= items; v++) {
                    int a = backs2(v);
                    int b = backs3(v);
                    // every trip through stage 3 sent back there goes round stage 2 again, which then forwards it
                    expected.add(v + ":" + a + ":" + b + ":" + (1 + a + b));
                    expectedBack += a + b;
                }
                List<String> got = new ArrayList<>();
                for (Item t : out.get()) {
                    got.add(t.value + ":" + t.backFrom2 + ":" + t.backFrom3 + ":" + t.visits);
                }
                Collections.sort(expected);
                Collections.sort(got);
                assertEquals(expected, got, "seed " + seed);
                assertEquals(expectedBack, fedBack.get(), "seed " + seed);
            }
        }
    }

    @Test
    void aFarmLoopInsideAPipelineLoopWithTheSameHead() {
        // the farm's emitter heads both loops: workers and the last stage feed it back
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            System.out.println("NestedFeedbackTest farm seed=" + seed);
            int items = 200 + new Random(seed).nextInt(200);
            Runs.Collector<Long> out = new Runs.Collector<>();
            Farm<Long, Long> farm = Farm.<Long, Long>of(3, () -> Nodes.<Long, Long>flatMap((x, o) -> {
                if (x % 2 == 0) {
                    o.send(x + 1); // back to the emitter: now odd
                } else {
                    o.sendTo(1, x); // forward to the collector
                }
            })).feedback();
            Node<Long, Long> last = Nodes.flatMap((Long x, Outbox<Long> o) -> {
                if (x % 3 == 0) {
                    o.send(x + 2); // back to the farm's emitter
                } else {
                    o.sendTo(1, x);
                }
            });
            Runs.run(Pipeline.of(Nodes.range(1, items), Pipeline.of(farm, last).feedback(), out.sink()));
            List<Long> expected = new ArrayList<>();
            for (long v = 1; v <= items; v++) {
                long x = v;
                while (true) { // the sequential model of one item's journey
                    if (x % 2 == 0) {
                        x++;
                        continue;
                    }
                    if (x % 3 == 0) {
                        x += 2;
                        continue;
                    }
                    break;
                }
                expected.add(x);
            }
            List<Long> got = out.get();
            Collections.sort(expected);
            Collections.sort(got);
            assertEquals(expected, got, "seed " + seed);
        }
    }

    /**
     * FastFlow's {@code test_multi_input5}: stage 0 generates the stream and heads three nested loops,
     * one closed by each later stage. Item v goes back from stage k (k = 1, 2, 3) while its count of
     * trips back from k is below {@code (v >> (2k - 2)) % 3}, and leaves once every stage let it go.
     */
    @Test
    void aGeneratorHeadsThreeNestedLoops() {
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            int items = 200 + new Random(seed).nextInt(300);
            AtomicLong fedBack = new AtomicLong();
            Source<long[]> s0 = new Source<>() {
                @Override
                public void generate(Outbox<long[]> o) {
                    for (long v = 1; v <= items; v++) {
                        o.send(new long[] {v, 0, 0, 0});
                    }
                }

                @Override
                public void onFeedback(long[] t, Outbox<long[]> o) {
                    fedBack.incrementAndGet();
                    o.send(t);
                }
            };
            Runs.Collector<long[]> out = new Runs.Collector<>();
            Block<?, ?> loops = Pipeline.of(Pipeline.of(Pipeline.of(s0, backFrom(1)).feedback(), backFrom(2)).feedback(),
                    backFrom(3)).feedback();
            // today: "feedback needs a first stage with exactly one input port, it has 0"
            Runs.run(Pipeline.of(loops, out.sink()));
            List<String> expected = new ArrayList<>();
            long expectedBack = 0;
            for (long v = 1; v <= items; v++) {
                expected.add(v + ":" + trips(v, 1) + ":" + trips(v, 2) + ":" + trips(v, 3));
                expectedBack += trips(v, 1) + trips(v, 2) + trips(v, 3);
            }
            List<String> got = new ArrayList<>();
            for (long[] t : out.get()) {
                got.add(t[0] + ":" + t[1] + ":" + t[2] + ":" + t[3]);
            }
            Collections.sort(expected);
            Collections.sort(got);
            assertEquals(expected, got, "seed " + seed);
            assertEquals(expectedBack, fedBack.get(), "seed " + seed);
        }
    }

    private static long trips(long v, int k) {
        return (v >> (2 * k - 2)) % 3;
    }

    /** Stage k of the generator's loops: back to stage 0 while the item owes trips from k, else forward. */
    private static Node<long[], long[]> backFrom(int k) {
        return Nodes.flatMap((long[] t, Outbox<long[]> o) -> {
            if (t[k] < trips(t[0], k)) {
                t[k]++;
                o.send(t);
            } else {
                o.sendTo(1, t);
            }
        });
    }

    @Test
    void aFarmWhoseEmitterGeneratesHeadsANestedLoop() {
        int items = 300;
        Source<Long> gen = new Source<>() {
            @Override
            public void generate(Outbox<Long> o) {
                for (long v = 1; v <= items; v++) {
                    o.send(v);
                }
            }

            @Override
            public void onFeedback(Long x, Outbox<Long> o) {
                o.send(x);
            }
        };
        Farm<Long, Long> farm = Farm.<Long, Long>of(2, () -> Nodes.<Long, Long>flatMap((x, o) -> {
            if (x % 2 == 0) {
                o.send(x + 1);
            } else {
                o.sendTo(1, x);
            }
        })).emitter(gen).feedback();
        Node<Long, Long> last = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x % 3 == 0) {
                o.send(x + 2);
            } else {
                o.sendTo(1, x);
            }
        });
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(Pipeline.of(farm, last).feedback(), out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long v = 1; v <= items; v++) {
            long x = v;
            while (x % 2 == 0 || x % 3 == 0) {
                x += x % 2 == 0 ? 1 : 2;
            }
            expected.add(x);
        }
        List<Long> got = out.get();
        Collections.sort(expected);
        Collections.sort(got);
        assertEquals(expected, got);
    }

    @Test
    void nestedLoopsWithDifferentFirstStagesAreRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 3),
                Pipeline.of(Nodes.identity(), Pipeline.of(Nodes.identity(), Nodes.identity()).feedback(),
                        Nodes.identity()).feedback(),
                Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("must share their first stage"), e.getMessage());
    }
}
