package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(120)
class AllToAllTest {

    private static List<Long> sorted(List<Long> l) {
        List<Long> c = new ArrayList<>(l);
        Collections.sort(c);
        return c;
    }

    /** A right member that records (left input index -> items) per right index. */
    static Node<Long, Long> recorder(Map<String, List<Long>> seen) {
        return new Node<>() {
            NodeContext c;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                seen.computeIfAbsent(c.workerIndex() + "<" + c.inputIndex(), k -> Collections.synchronizedList(new ArrayList<>())).add(x);
                o.send(x);
            }
        };
    }

    @Test
    void everyLeftReachesEveryRightRoundRobin() {
        Map<String, List<Long>> seen = new ConcurrentHashMap<>();
        Runs.Collector<Long> out = new Runs.Collector<>();
        // two sources on the left (each 1..30), three recorders on the right
        AllToAll<Void, Long> a2a = AllToAll.of(2, () -> Nodes.range(1, 30), 3, () -> recorder(seen));
        Runs.run(Pipeline.of(a2a, out.sink()));
        assertEquals(60, out.get().size());
        // left member i sends item k (1-based) to right (k-1) % 3
        for (int right = 0; right < 3; right++) {
            for (int left = 0; left < 2; left++) {
                List<Long> expected = new ArrayList<>();
                for (long k = 1; k <= 30; k++) {
                    if ((k - 1) % 3 == right) {
                        expected.add(k);
                    }
                }
                assertEquals(expected, seen.get(right + "<" + left), "right " + right + " from left " + left);
            }
        }
    }

    @Test
    void byKeyRoutesEqualKeysToOneRightMember() {
        Map<String, List<Long>> seen = new ConcurrentHashMap<>();
        AllToAll<Void, Long> a2a = AllToAll.<Void, Long>of(3, () -> Nodes.range(0, 299), 4, () -> recorder(seen))
                .dispatch(Dispatch.<Long>byKey(x -> x % 10));
        Runs.Collector<Long> out = new Runs.Collector<>();
        Runs.run(Pipeline.of(a2a, out.sink()));
        assertEquals(900, out.get().size());
        Map<Long, Character> owner = new ConcurrentHashMap<>();
        seen.forEach((k, items) -> items.forEach(x -> {
            Character prev = owner.putIfAbsent(x % 10, k.charAt(0));
            assertTrue(prev == null || prev == k.charAt(0), "key " + (x % 10) + " reached two right members");
        }));
    }

    @Test
    void broadcastAndExplicitIndex() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        AllToAll<Void, Long> a2a = AllToAll.<Void, Long>of(1, () -> Nodes.range(1, 10), 3, () -> Nodes.map((Long x) -> x))
                .dispatch(Dispatch.broadcast());
        Runs.run(Pipeline.of(a2a, out.sink()));
        assertEquals(30, out.get().size());

        Map<String, List<Long>> seen = new ConcurrentHashMap<>();
        Source<Long> chooser = Nodes.source(o -> {
            for (long i = 0; i < 20; i++) {
                o.sendTo((int) (i % 2), i); // even to right 0, odd to right 1
            }
        });
        Runs.run(Pipeline.of(AllToAll.of(List.of(chooser), List.of(recorder(seen), recorder(seen))), Nodes.sink(x -> { })));
        for (Long x : seen.get("0<0")) {
            assertEquals(0, x % 2);
        }
        for (Long x : seen.get("1<0")) {
            assertEquals(1, x % 2);
        }
        assertEquals(20, seen.get("0<0").size() + seen.get("1<0").size());
    }

    @Test
    void farmInsideAnAllToAllSide() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        AllToAll<Long, Long> a2a = AllToAll.of(
                List.of(Farm.of(2, () -> Nodes.map((Long x) -> x + 1)), Nodes.map((Long x) -> x + 1)),
                List.of(Nodes.map((Long x) -> x * 2), Farm.of(2, () -> Nodes.map((Long x) -> x * 2)).ordered()));
        Runs.run(Pipeline.of(Nodes.range(1, 500), a2a, out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 500; i++) {
            expected.add((i + 1) * 2);
        }
        assertEquals(expected, sorted(out.get()));
    }

    /** The eight combine_farms topologies: the result's shape and the exact multiset of outputs. */
    @ParameterizedTest(name = "R={0} G={1} merge={2} sameSize={3}")
    @CsvSource({
        "true,true,false,true", "true,false,false,true", "false,true,false,true", "false,false,false,true",
        "true,true,true,true", "true,false,true,true", "false,true,true,true", "false,false,true,true",
        "false,false,true,false"})
    void combineFarms(boolean r, boolean g, boolean merge, boolean sameSize) {
        Farm<Long, Long> f1 = Farm.of(3, () -> Nodes.map((Long x) -> x + 1));
        Farm<Long, Long> f2 = Farm.of(sameSize ? 3 : 2, () -> Nodes.map((Long x) -> x * 10));
        Block<Long, Long> combined = Farm.combine(f1, f2,
                r ? () -> Nodes.map((Long x) -> x + 100) : null,
                g ? () -> Nodes.map((Long x) -> x + 1000) : null, merge);
        Runs.Collector<Long> out = new Runs.Collector<>();
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 200), combined, out.sink()));
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 200; i++) {
            long y = i + 1;
            if (r) {
                y += 100;
            }
            if (g) {
                y += 1000;
            }
            expected.add(y * 10);
        }
        Collections.sort(expected);
        assertEquals(expected, sorted(out.get()));
        int nodes = s.nodes().size() - 2; // minus source and sink
        int n2 = sameSize ? 3 : 2;
        int expectedNodes;
        if (!merge && (r || g)) {
            expectedNodes = 1 + 3 + n2 + 1; // emitter, L(+R) fused, (G+)R fused, collector
        } else if (!merge || !sameSize) {
            expectedNodes = 3 + n2; // bare all-to-all
        } else if (r || g) {
            expectedNodes = 1 + 3 + 1 + n2 + 1; // farm1 without collector, farm2 with emitter R∘G
        } else {
            expectedNodes = 1 + 3 + 3 + 1; // farm fusion: emitter, 3 pipelines of 2, collector
        }
        assertEquals(expectedNodes, nodes, s.table());
    }

    /**
     * A combination that takes the farms apart (the farm fusion, an all-to-all with or without R and G)
     * has no place for a farm's feedback: it is refused, naming the farm. Before, the feedback was
     * dropped without a word and a worker's send(x), meant to go back, went forward.
     */
    @ParameterizedTest(name = "R={0} merge={1} feedback in f{2}")
    @CsvSource({"false,true,1", "false,true,2", "false,false,1", "true,false,2"})
    void combiningAFarmWithFeedbackThatWouldBeDroppedIsRefused(boolean r, boolean merge, int withFeedback) {
        Farm<Long, Long> f1 = Farm.<Long, Long>of(2, () -> Nodes.map((Long x) -> x + 1)).named("first");
        Farm<Long, Long> f2 = Farm.<Long, Long>of(2, () -> Nodes.map((Long x) -> x * 10)).named("second");
        (withFeedback == 1 ? f1 : f2).feedback();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Farm.combine(f1, f2,
                r ? () -> Nodes.map((Long x) -> x + 100) : null, null, merge));
        assertTrue(e.getMessage().contains(withFeedback == 1 ? "'first'" : "'second'")
                && e.getMessage().contains("feedback"), e.getMessage());
    }
}
