package org.bbflow.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeoutException;

/** Test support: run a block with a deadline, collect a sink's items, and check for leftover threads. */
final class Runs {
    private Runs() {
    }

    static final Duration DEADLINE = Duration.ofSeconds(60);

    static RunStats run(Block<?, ?> block) {
        return run(block, FlowOptions.defaults());
    }

    static RunStats run(Block<?, ?> block, FlowOptions options) {
        return run(block, options, DEADLINE);
    }

    static RunStats run(Block<?, ?> block, FlowOptions options, Duration deadline) {
        Flow flow = Flow.start(block, options);
        try {
            return flow.join(deadline);
        } catch (TimeoutException e) {
            flow.cancel();
            throw new AssertionError("flow did not end within " + deadline + ":\n" + flow.stats().table(), e);
        }
    }

    /** A thread-safe list fed by a sink. */
    static final class Collector<T> {
        final List<T> items = Collections.synchronizedList(new ArrayList<>());

        Node<T, Void> sink() {
            return Nodes.sink(items::add);
        }

        List<T> get() {
            synchronized (items) {
                return new ArrayList<>(items);
            }
        }
    }

    static List<Long> range(long from, long to) {
        List<Long> l = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            l.add(i);
        }
        return l;
    }

    /** Threads whose name starts with the given root path that are still alive. */
    static List<String> liveThreads(String rootPrefix) {
        List<String> alive = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && (t.getName().equals(rootPrefix) || t.getName().startsWith(rootPrefix + "/"))) {
                alive.add(t.getName());
            }
        }
        return alive;
    }
}
