package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class CombTest {

    /** A node that logs its life cycle and sends the running sum at EOS. */
    static Node<Long, Long> summing(String name, List<String> log) {
        return new Node<>() {
            long sum;
            String thread;

            @Override
            public void init(NodeContext c) {
                log.add(name + ".init");
                thread = Thread.currentThread().getName();
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) {
                assertEquals(thread, Thread.currentThread().getName());
                sum += x;
                o.send(x);
            }

            @Override
            public void onEos(Outbox<Long> o) {
                log.add(name + ".eos");
                o.send(-sum);
            }

            @Override
            public void close() {
                log.add(name + ".close");
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    @Test
    void combRunsBothOnOneThreadAndHonoursLifeCycle() {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        Runs.Collector<Long> out = new Runs.Collector<>();
        Node<Long, Long> comb = summing("a", log).andThen(summing("b", log));
        RunStats s = Runs.run(Pipeline.of(Nodes.range(1, 4), comb, out.sink()));
        // b sees 1..4 and a's -10 sent at a's EOS; then b sends its own -(10-10)=0
        assertEquals(List.of(1L, 2L, 3L, 4L, -10L, 0L), out.get());
        assertEquals(List.of("a.init", "b.init", "a.eos", "b.eos", "a.close", "b.close"), log);
        assertEquals(3, s.nodes().size());
        assertEquals("a+b", s.nodes().get(1).name());
    }

    @Test
    void combWithSourceIsASource() {
        Runs.Collector<Long> out = new Runs.Collector<>();
        Node<Void, Long> src = Comb.of(Nodes.range(1, 5), Nodes.map((Long x) -> x * x));
        Runs.run(Pipeline.of(src, out.sink()));
        assertEquals(List.of(1L, 4L, 9L, 16L, 25L), out.get());
    }

    @Test
    void combRefusesItselfAndSecondSource() {
        Node<Long, Long> a = Nodes.identity();
        assertThrows(IllegalArgumentException.class, () -> Comb.of(a, a));
        assertThrows(IllegalArgumentException.class, () -> Comb.of(Nodes.identity(), (Node) Nodes.range(1, 2)));
    }

    @Test
    void combinedSourceAtTheHeadOfAFeedbackLoopReceivesTheFedBackItems() {
        List<Long> done = Collections.synchronizedList(new ArrayList<>());
        Source<Long> looping = new Source<>() {
            @Override
            public void generate(Outbox<Long> o) {
                for (long i = 1; i <= 10; i++) {
                    o.send(i);
                }
            }

            @Override
            public void onFeedback(Long x, Outbox<Long> o) {
                o.send(x);
            }
        };
        // fused with the source: +1 on the way out, for generated and fed-back items alike
        Node<Void, Long> head = Comb.of(looping, Nodes.map((Long x) -> x + 1));
        Node<Long, Long> doubler = Nodes.flatMap((Long x, Outbox<Long> o) -> {
            if (x >= 100) {
                done.add(x);
            } else {
                o.send(x * 2);
            }
        });
        Runs.run(Pipeline.of(head, doubler).feedback());
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 10; i++) {
            long y = i + 1;
            while (y < 100) {
                y = y * 2 + 1;
            }
            expected.add(y);
        }
        List<Long> got = new ArrayList<>(done);
        Collections.sort(got);
        Collections.sort(expected);
        assertEquals(expected, got);
    }
}
