package org.bbflow.examples.thesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Channel;
import org.bbflow.core.Comb;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;
import org.bbflow.examples.Output;

/**
 * The examples of the BBFlow thesis manual (Appendix A), written with this library's blocks. Each
 * returns the lines it printed, so a test can check them; lines printed by different nodes
 * interleave in the order the nodes ran.
 *
 * <ul>
 *   <li>{@code two-stage}: a source and a sink in a pipeline (Code 17).</li>
 *   <li>{@code manual-channel}: the same two stages as two flows joined by a {@link Channel} made by
 *       hand (Code 16).</li>
 *   <li>{@code farm-pipeline}: source, farm of 3 doubling workers, sink (Code 20).</li>
 *   <li>{@code custom-farm}: a farm whose emitter generates the stream and whose collector reports
 *       which worker each result came from (Code 21).</li>
 *   <li>{@code empty-farm}: an empty farm given its workers one by one, with an emitter that picks
 *       the worker itself (Code 22).</li>
 *   <li>{@code three-stage}: a pipeline of two stages extended with a third (Code 23).</li>
 *   <li>{@code combine2}: workers that are two nodes fused on one thread, custom emitter and
 *       collector, then a final stage (Code 26).</li>
 *   <li>{@code all-to-all}: three left workers to two right workers routed by key, no emitter or
 *       collector in between (Code 24).</li>
 *   <li>{@code combine-farms}: two farms combined with R and G nodes (Code 25).</li>
 *   <li>{@code ordered-labels}: an unordered farm followed by a node that restores input order from
 *       labels carried by the items (Code 28).</li>
 * </ul>
 */
public final class ThesisExamples {
    private ThesisExamples() {
    }

    /** The printed lines of one example. */
    public record Result(String name, List<String> lines) {
    }

    /** One example: runs its flow over {@code items} numbers, printing to {@code log}. */
    @FunctionalInterface
    interface Example {
        void run(int items, Output log);
    }

    private static final Map<String, Example> EXAMPLES = new LinkedHashMap<>();

    static {
        EXAMPLES.put("two-stage", ThesisExamples::twoStage);
        EXAMPLES.put("manual-channel", ThesisExamples::manualChannel);
        EXAMPLES.put("farm-pipeline", ThesisExamples::farmInPipeline);
        EXAMPLES.put("custom-farm", ThesisExamples::customEmitterAndCollector);
        EXAMPLES.put("empty-farm", ThesisExamples::emptyFarm);
        EXAMPLES.put("three-stage", ThesisExamples::threeStage);
        EXAMPLES.put("combine2", ThesisExamples::combine2);
        EXAMPLES.put("all-to-all", ThesisExamples::allToAll);
        EXAMPLES.put("combine-farms", ThesisExamples::combineFarms);
        EXAMPLES.put("ordered-labels", ThesisExamples::orderedByLabels);
    }

    /** The example names, in the manual's order. */
    public static List<String> names() {
        return List.copyOf(EXAMPLES.keySet());
    }

    /**
     * Runs one example with {@code items} items, printing to {@code out} as it goes.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static Result run(String name, int items, Output out) {
        Example example = EXAMPLES.get(name);
        if (example == null) {
            throw new IllegalArgumentException("no thesis example '" + name + "'; choose one of " + names());
        }
        if (items < 1) {
            throw new IllegalArgumentException("--items must be >= 1, got " + items);
        }
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        example.run(items, line -> {
            lines.add(line);
            out.println(line);
        });
        return new Result(name, List.copyOf(lines));
    }

    /** A source of {@code 1, 2, ..., n} (the manual's generator). */
    static Source<Long> numbers(long n) {
        return Nodes.source(out -> {
            for (long i = 1; i <= n; i++) {
                out.send(i);
            }
        });
    }

    // ---- Code 17: two-stage pipeline -----------------------------------------------------------

    /** A source of 1..n and a printing sink in a pipeline. */
    public static void twoStage(int n, Output log) {
        Pipeline.of(
                numbers(n),
                Nodes.sink((Long x) -> log.println("sink got " + x))
        ).run();
    }

    // ---- Code 16: the same two stages wired by hand ---------------------------------------------

    /**
     * Two flows joined by a channel made by hand: the first puts 1..n on the channel and closes it,
     * the second takes from it until end of stream. Both are started, then both are joined.
     */
    public static void manualChannel(int n, Output log) {
        Channel<Long> channel = Channel.spsc(64);
        Flow producer = Flow.start(numbers(n).andThen(Nodes.toChannel(channel)));
        Flow consumer = Flow.start(Nodes.fromChannel(channel).andThen(Nodes.sink((Long x) -> log.println("sink got " + x))));
        producer.join();
        consumer.join();
    }

    // ---- Code 20: a farm inside a pipeline ---------------------------------------------------

    /** Source, a farm of 3 workers doubling each number, sink. Results arrive first-come. */
    public static void farmInPipeline(int n, Output log) {
        Pipeline.of(
                numbers(n),
                Farm.of(3, () -> Nodes.map((Long x) -> x * 2)),
                Nodes.sink((Long x) -> log.println("sink got " + x))
        ).run();
    }

    // ---- Code 21: replacing the emitter and the collector -----------------------------------

    /**
     * A collector that says which worker (input) each result came from, and forwards the result
     * when the farm has a next stage.
     */
    static final class ReportingCollector implements Node<Long, Long> {
        private final Output log;
        private NodeContext context;

        ReportingCollector(Output log) {
            this.log = log;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
        }

        @Override
        public void onItem(Long x, Outbox<Long> out) {
            log.println("collector got " + x + " from worker " + context.inputIndex());
            if (out.outputCount() > 0) {
                out.send(x);
            }
        }
    }

    /**
     * A farm of 3 doubling workers whose emitter is a source generating 1..n (dealt round-robin) and
     * whose collector reports the worker of each result.
     */
    public static void customEmitterAndCollector(int n, Output log) {
        Farm.of(3, () -> Nodes.map((Long x) -> x * 2))
                .emitter(numbers(n))
                .collector(new ReportingCollector(log))
                .run();
    }

    // ---- Code 22: an empty farm filled by hand ------------------------------------------------

    /**
     * An empty farm given 3 workers one by one; its emitter sends number {@code i} to worker
     * {@code i % 3} itself with {@link Outbox#sendTo}.
     */
    public static void emptyFarm(int n, Output log) {
        Farm<Long, Void> farm = Farm.empty();
        for (int w = 0; w < 3; w++) {
            farm.addWorker(Nodes.map((Long x) -> x * 2));
        }
        farm.emitter(Nodes.<Long>source(out -> {
            for (long i = 1; i <= n; i++) {
                out.sendTo((int) (i % out.outputCount()), i);
            }
        }));
        farm.collector(new ReportingCollector(log)).run();
    }

    // ---- Code 23: three-stage pipeline --------------------------------------------------------

    /** A two-stage pipeline (source, doubling node) extended with a printing third stage. */
    public static void threeStage(int n, Output log) {
        Pipeline<Void, Long> firstTwo = Pipeline.of(numbers(n), Nodes.map((Long x) -> x * 2));
        firstTwo.then(Nodes.sink((Long x) -> log.println("sink got " + x))).run();
    }

    // ---- Code 26: combine2 ------------------------------------------------------------------

    /** Forwards each item, printing which worker it passes (the second half of a fused worker). */
    static final class Announce implements Node<Long, Long> {
        private final Output log;
        private int worker;

        Announce(Output log) {
            this.log = log;
        }

        @Override
        public void init(NodeContext context) {
            worker = context.workerIndex();
        }

        @Override
        public void onItem(Long x, Outbox<Long> out) {
            log.println("worker " + worker + " in=" + x);
            out.send(x);
        }
    }

    /**
     * An empty farm whose 3 workers are each two nodes fused on one thread ({@link Comb}); the
     * emitter sends {@code i} to worker {@code i % 3}; the collector reports and forwards; a last
     * stage prints what reaches it.
     */
    public static void combine2(int n, Output log) {
        Farm<Long, Long> farm = Farm.empty();
        for (int w = 0; w < 3; w++) {
            farm.addWorker(Comb.of(Nodes.<Long>identity(), new Announce(log)));
        }
        farm.emitter(Nodes.<Long>source(out -> {
            for (long i = 1; i <= n; i++) {
                out.sendTo((int) (i % out.outputCount()), i);
            }
        }));
        Farm<Long, Long> withCollector = farm.collector(new ReportingCollector(log));
        Pipeline.of(withCollector, Nodes.sink((Long x) -> log.println("last stage got " + x))).run();
    }

    // ---- Code 24: all-to-all ------------------------------------------------------------------

    /** A right member of the all-to-all: reports each item and the left member it came from. */
    static final class RightMember implements Node<Long, Void> {
        private final Output log;
        private NodeContext context;

        RightMember(Output log) {
            this.log = log;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
        }

        @Override
        public void onItem(Long x, Outbox<Void> out) {
            log.println("right " + context.workerIndex() + " got " + x + " from left " + context.inputIndex());
        }
    }

    /**
     * Source of 1..n into an all-to-all: 3 left members add 100, then send by key (odd or even) to
     * one of 2 right members, so all even results meet at one right member and all odd ones at one.
     */
    public static void allToAll(int n, Output log) {
        AllToAll<Long, Void> a2a = AllToAll.<Long, Void>of(
                3, () -> Nodes.map((Long x) -> x + 100),
                2, () -> new RightMember(log))
                .dispatch(Dispatch.byKey((Long x) -> x % 2));
        Pipeline.of(numbers(n), a2a).run();
    }

    // ---- Code 25: combining two farms ---------------------------------------------------------

    /**
     * Two farms combined ({@link Farm#combine}) with an R node fused after each left worker and a G
     * node fused before each right worker: every number x becomes ((x + 1) * 10 + 5) * 2.
     */
    public static void combineFarms(int n, Output log) {
        Farm<Long, Long> left = Farm.of(3, () -> Nodes.map((Long x) -> x + 1));
        Farm<Long, Long> right = Farm.of(2, () -> Nodes.map((Long x) -> x * 2));
        Block<Long, Long> combined = Farm.combine(left, right,
                () -> Nodes.map((Long x) -> x * 10),   // R: after each left worker
                () -> Nodes.map((Long x) -> x + 5),    // G: before each right worker
                false);
        Pipeline.of(numbers(n), combined, Nodes.sink((Long x) -> log.println("sink got " + x))).run();
    }

    // ---- Code 28: ordered farm by labels ------------------------------------------------------

    /** An item with the label (sequence number) it was given at the source. */
    public record Labelled(long label, long value) {
    }

    /** Restores label order: holds early items back until the next expected label arrives. */
    static final class Reorder implements Node<Labelled, Labelled> {
        private final PriorityQueue<Labelled> early = new PriorityQueue<>((a, b) -> Long.compare(a.label(), b.label()));
        private long next;

        @Override
        public void onItem(Labelled x, Outbox<Labelled> out) {
            early.add(x);
            while (!early.isEmpty() && early.peek().label() == next) {
                out.send(early.poll());
                next++;
            }
        }

        @Override
        public void onEos(Outbox<Labelled> out) {
            while (!early.isEmpty()) { // only if a label was lost upstream: send the rest in label order
                out.send(early.poll());
            }
        }
    }

    /** Uneven CPU work, so workers finish out of order: item i costs (i * 7 % 5) units. */
    static long unevenWork(long label) {
        long h = label;
        for (int i = 0; i < (label * 7 % 5) * 20_000; i++) {
            h = h * 6364136223846793005L + 1442695040888963407L;
        }
        return h;
    }

    /**
     * Labelled items through a first-come farm of 4 workers with uneven costs (so results come out
     * of order), then a node that restores the labels' order, then a printing sink.
     */
    public static void orderedByLabels(int n, Output log) {
        Pipeline.of(
                Nodes.<Labelled>source(out -> {
                    for (long i = 0; i < n; i++) {
                        out.send(new Labelled(i, i * i));
                    }
                }),
                Farm.of(4, () -> Nodes.map((Labelled x) -> {
                    unevenWork(x.label());
                    return x;
                })),
                new Reorder(),
                Nodes.sink((Labelled x) -> log.println("label " + x.label() + " value " + x.value()))
        ).run();
    }

    // ---- command line -------------------------------------------------------------------------

    /**
     * The {@code thesis} subcommand: lists the examples or runs one or all of them.
     *
     * @param name an example's name, {@code all} or {@code list}
     * @param items numbers each example streams
     * @param out where to print
     * @return 0
     */
    public static int main(String name, int items, Output out) {
        if (name.equals("list")) {
            out.println("thesis examples: " + String.join(", ", names()));
            return 0;
        }
        List<String> which = name.equals("all") ? names() : List.of(name);
        for (String example : which) {
            out.println("== " + example);
            run(example, items, out);
        }
        return 0;
    }
}
