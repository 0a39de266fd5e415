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
 * Feedback inside an all-to-all (FastFlow's ff_a2a wrap_around): right members send items back to
 * a left member of their choice; the loop ends once every left input has ended and nothing is in
 * flight. Oracle: each item makes {@code value % 4} round trips and then leaves once, whatever the
 * schedule; each left member checks that it gets back exactly the items routed to it.
 */
@Timeout(120)
class AllToAllFeedbackTest {
    private static final long[] SEEDS = {3L, 77L, 20261123L};
    private static final List<WaitStrategy> STRATEGIES =
            List.of(WaitStrategy.backoff(), WaitStrategy.blocking(), WaitStrategy.busySpin());

    /** How a right member sends an item back. */
    enum Route { SEND, SEND_TO_INPUT_INDEX, SEND_TO_NEXT_LEFT, PAIRWISE }

    /** An item going round: its value, the left member that first took it, where it must come back. */
    static final class Trip {
        final long value;
        final int origin;
        int expectedLeft;
        int trips;

        Trip(long value, int origin) {
            this.value = value;
            this.origin = origin;
            this.expectedLeft = origin;
        }
    }

    private static int roundTrips(long value) {
        return (int) (value % 4);
    }

    /** Left member: tags items from outside with its index, checks and re-sends items fed back. */
    private static Node<Object, Trip> left(List<String> misrouted, AtomicLong fedBack, long seed) {
        return new Node<>() {
            NodeContext ctx;
            int index;
            Random random;

            @Override
            public void init(NodeContext c) {
                ctx = c;
                index = c.workerIndex();
                random = new Random(seed + index);
            }

            @Override
            public void onItem(Object x, Outbox<Trip> o) {
                if (!ctx.fromFeedback()) {
                    o.send(new Trip((Long) x, index));
                    return;
                }
                Trip t = (Trip) x;
                fedBack.incrementAndGet();
                if (t.expectedLeft != index) {
                    misrouted.add("item " + t.value + " came back to left " + index + ", expected " + t.expectedLeft);
                }
                if (random.nextInt(8) == 0) {
                    Thread.yield();
                }
                o.send(t);
            }
        };
    }

    /** Right member: counts a trip; sends the item back until it made its round trips, then forward. */
    private static Node<Trip, Trip> right(Route route, int nLeft) {
        return new Node<>() {
            NodeContext ctx;

            @Override
            public void init(NodeContext c) {
                ctx = c;
            }

            @Override
            public void onItem(Trip t, Outbox<Trip> o) {
                if (t.trips == roundTrips(t.value)) {
                    o.sendTo(route == Route.PAIRWISE ? 1 : nLeft, t); // forward, out of the all-to-all
                    return;
                }
                t.trips++;
                switch (route) {
                    case SEND:
                        t.expectedLeft = ctx.inputIndex();
                        o.send(t);
                        break;
                    case SEND_TO_INPUT_INDEX:
                        t.expectedLeft = ctx.inputIndex();
                        o.sendTo(ctx.inputIndex(), t);
                        break;
                    case SEND_TO_NEXT_LEFT:
                        t.expectedLeft = (ctx.inputIndex() + 1) % nLeft;
                        o.sendTo(t.expectedLeft, t);
                        break;
                    default:
                        t.expectedLeft = ctx.workerIndex(); // right j returns to left j
                        o.send(t);
                }
            }
        };
    }

    private static void check(int nLeft, int nRight, Route route) {
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            WaitStrategy ws = STRATEGIES.get((int) Math.floorMod(listed, STRATEGIES.size()));
            System.out.println("AllToAllFeedbackTest " + nLeft + "x" + nRight + " " + route + " seed=" + seed
                    + " strategy=" + ws);
            int items = 200 + new Random(seed).nextInt(300);
            List<String> misrouted = Collections.synchronizedList(new ArrayList<>());
            AtomicLong fedBack = new AtomicLong();
            Runs.Collector<Trip> out = new Runs.Collector<>();
            AllToAll<Object, Trip> a2a = AllToAll.of(nLeft, () -> left(misrouted, fedBack, seed),
                    nRight, () -> right(route, nLeft));
            if (route == Route.PAIRWISE) {
                a2a.feedbackPairwise();
            } else {
                a2a.feedback();
            }
            Runs.run(Pipeline.of(Nodes.range(1, items), a2a, out.sink()), FlowOptions.defaults().waitStrategy(ws));
            List<Long> values = new ArrayList<>();
            for (long v = 1; v <= items; v++) {
                values.add(v);
            }
            checkAgainstModel(values, out.get(), fedBack.get(), misrouted, seed);
        }
    }

    @Test
    void twoByThreeReturnsEachItemToItsOrigin() {
        check(2, 3, Route.SEND);
        check(2, 3, Route.SEND_TO_INPUT_INDEX);
    }

    @Test
    void threeByThreeRoutesToAChosenLeftMember() {
        check(3, 3, Route.SEND);
        check(3, 3, Route.SEND_TO_NEXT_LEFT);
    }

    @Test
    void oneByFour() {
        check(1, 4, Route.SEND);
        check(1, 4, Route.SEND_TO_NEXT_LEFT);
    }

    @Test
    void threeByThreePointToPoint() {
        check(3, 3, Route.PAIRWISE);
        check(1, 1, Route.PAIRWISE);
    }

    /**
     * Left members that are sources of very different lengths (one ends at once, one yields while it
     * generates): their outside inputs end at different times, while items of the others still go
     * round. The loop may end only after the last source ended and nothing is in flight; ending at the
     * first source's end (or when one head alone sees its loop drained) loses items, never ending hangs.
     */
    @Test
    void leftSourcesThatEndAtDifferentTimesLoseNothing() {
        for (long listed : SEEDS) {
            long seed = TestSeed.mix(listed);
            WaitStrategy ws = STRATEGIES.get((int) Math.floorMod(listed, STRATEGIES.size()));
            Random random = new Random(seed);
            int[] lengths = {0, 1 + random.nextInt(20), 200 + random.nextInt(400)};
            System.out.println("AllToAllFeedbackTest sources seed=" + seed + " strategy=" + ws + " lengths="
                    + java.util.Arrays.toString(lengths));
            List<String> misrouted = Collections.synchronizedList(new ArrayList<>());
            AtomicLong fedBack = new AtomicLong();
            List<Block<?, ?>> lefts = new ArrayList<>();
            for (int i = 0; i < lengths.length; i++) {
                final int index = i;
                final int length = lengths[i];
                lefts.add(new Source<Trip>() {
                    @Override
                    public void generate(Outbox<Trip> o) {
                        for (int k = 1; k <= length; k++) {
                            o.send(new Trip(index * 1_000_000L + k, index));
                            if (index == 2 && k % 16 == 0) {
                                Thread.yield(); // the longest source lags while the others' items go round
                            }
                        }
                    }

                    @Override
                    public void onFeedback(Trip t, Outbox<Trip> o) {
                        fedBack.incrementAndGet();
                        if (t.expectedLeft != index) {
                            misrouted.add("item " + t.value + " came back to left " + index + ", expected " + t.expectedLeft);
                        }
                        o.send(t);
                    }
                });
            }
            List<Block<?, ?>> rights = List.of(right(Route.SEND_TO_INPUT_INDEX, lengths.length),
                    right(Route.SEND_TO_INPUT_INDEX, lengths.length));
            Runs.Collector<Trip> out = new Runs.Collector<>();
            AllToAll<Void, Trip> a2a = AllToAll.<Void, Trip>of(lefts, rights).feedback();
            Runs.run(Pipeline.of(a2a, out.sink()), FlowOptions.defaults().waitStrategy(ws));
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < lengths.length; i++) {
                for (long k = 1; k <= lengths[i]; k++) {
                    values.add(i * 1_000_000L + k);
                }
            }
            checkAgainstModel(values, out.get(), fedBack.get(), misrouted, seed);
        }
    }

    /** The sequential model: every item leaves once, after value % 4 round trips, none misrouted. */
    private static void checkAgainstModel(List<Long> values, List<Trip> out, long fedBack, List<String> misrouted,
                                          long seed) {
        List<String> expected = new ArrayList<>();
        long expectedBack = 0;
        for (long v : values) {
            expected.add(v + ":" + roundTrips(v));
            expectedBack += roundTrips(v);
        }
        List<String> got = new ArrayList<>();
        for (Trip t : out) {
            got.add(t.value + ":" + t.trips);
        }
        Collections.sort(expected);
        Collections.sort(got);
        assertEquals(expected, got, "seed " + seed);
        assertEquals(expectedBack, fedBack, "seed " + seed);
        assertEquals(List.of(), misrouted, "seed " + seed);
    }

    @Test
    void refusedCombinationsAreNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(
                Nodes.range(1, 3), AllToAll.of(2, Nodes::identity, 3, Nodes::identity).feedbackPairwise(),
                Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("as many left as right"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 3),
                AllToAll.of(2, () -> Pipeline.of(Nodes.identity(), Nodes.identity()), 2, Nodes::identity).feedback(),
                Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("must be a node"), e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> Flow.start(Pipeline.of(Nodes.range(1, 3),
                AllToAll.of(2, Nodes::identity, 2, Nodes::identity).channels(ChannelSpec.mpsc(16)).feedback(),
                Nodes.sink(x -> { }))));
        assertTrue(e.getMessage().contains("MPSC"), e.getMessage());
    }
}
