package org.bbflow.bench.flow;

import java.util.ArrayList;
import java.util.List;
import org.bbflow.bench.support.Work;
import org.bbflow.core.Block;
import org.bbflow.core.Collect;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowOptions;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;

/** The flows of the thesis's farm and pipeline benchmarks, shared by the benchmark classes. */
final class Flows {
    private Flows() {
    }

    /**
     * The thesis's farm (Figure 12, Code 11): the emitter generates 1..items, {@code workers}
     * workers each run {@code spin(x, reps)}, the collector sums the results. Emitter and collector
     * are the farm's own nodes (no extra pipeline stages), so the flow has workers + 2 threads.
     *
     * @return the sum the collector computed
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static long farm(int workers, String policy, int items, int reps, FlowOptions options, Expected expected) {
        List<Block<?, ?>> ws = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            ws.add(Nodes.map((Long x) -> Work.spin(x, reps)));
        }
        Farm<Object, Object> farm = Farm.of(ws);
        String[] p = policy.split("-");
        switch (p[0]) {
            case "rr": farm.dispatch(Dispatch.roundRobin()); break;
            case "ondemand": farm.dispatch(Dispatch.onDemand()); break;
            default: throw new IllegalArgumentException("unknown dispatch in '" + policy + "'");
        }
        switch (p[1]) {
            case "firstcome": farm.collect(Collect.FIRST_COME); break;
            case "roundrobin": farm.collect(Collect.ROUND_ROBIN); break;
            case "ordered": farm.collect(Collect.ORDERED); break;
            default: throw new IllegalArgumentException("unknown collect in '" + policy + "'");
        }
        long[] acc = new long[1];
        long[] last = {0};
        boolean ordered = p[1].equals("ordered");
        Node<Long, Void> collector = Nodes.sink((Long y) -> acc[0] += y);
        Node<Void, Long> emitter = Nodes.range(1, items);
        if (ordered) {
            // an ordered farm must deliver spin(1), spin(2), ...: check the order as well as the sum
            collector = Nodes.sink((Long y) -> {
                int i = (int) last[0]++;
                if (i >= expected.perItem.length || y != expected.perItem[i]) {
                    throw new IllegalStateException("ordered farm delivered out of order at item " + (i + 1));
                }
                acc[0] += y;
            });
        }
        farm.emitter((Node) emitter);
        farm.collector((Node) collector);
        farm.run(options);
        return acc[0];
    }

    /**
     * The thesis's pipeline (Figure 16, Code 27): a generator sends 1..items, {@code stages}
     * workers each run {@code spin(x, reps / stages)}, a final node sums. stages + 2 threads.
     *
     * @return the sum
     */
    static long pipeline(int stages, int items, int reps, FlowOptions options) {
        if (reps % stages != 0) {
            throw new IllegalArgumentException("work " + reps + " is not divisible by " + stages + " stages");
        }
        int share = reps / stages;
        Block<?, ?>[] blocks = new Block<?, ?>[stages + 2];
        blocks[0] = Nodes.range(1, items);
        for (int i = 1; i <= stages; i++) {
            blocks[i] = Nodes.map((Long x) -> Work.spin(x, share));
        }
        long[] acc = new long[1];
        blocks[stages + 1] = Nodes.sink((Long y) -> acc[0] += y);
        Pipeline.of(blocks).run(options);
        return acc[0];
    }

    /** Throws unless the flow computed what the sequential loop computes. */
    static long check(String what, long got, Expected expected) {
        if (got != expected.sum) {
            throw new IllegalStateException(what + ": wrong result " + got + ", expected " + expected.sum);
        }
        return got;
    }

    /** The sequential results, computed once per trial (outside the measurement). */
    static final class Expected {
        final long[] perItem;
        final long sum;

        Expected(int items, int reps) {
            perItem = new long[items];
            long s = 0;
            for (int i = 0; i < items; i++) {
                perItem[i] = Work.spin(i + 1, reps);
                s += perItem[i];
            }
            sum = s;
        }
    }
}
