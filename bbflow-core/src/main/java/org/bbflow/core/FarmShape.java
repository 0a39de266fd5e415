package org.bbflow.core;

import java.util.List;

/**
 * What a {@link Farm} told the {@link GraphBuilder} about itself: its emitter, workers and collector
 * and their policies. The plan compiler decides from it what the farm's policies mean for the nodes
 * around them (ordered units, strict collectors, reorder windows), in one place for every farm.
 */
final class FarmShape {
    /** The farm, for error messages: {@code farm 'name' (path)}. */
    final String where;
    final Vertex emitter;
    final Vertex collector;
    final Collect collect;
    final Dispatch dispatch;
    /** The reorder window asked for with {@link Farm#ordered(int)}, or 0. */
    final int window;
    /** Workers send back to the emitter ({@link Farm#feedback()}). */
    final boolean workersFeedBack;
    /** The blocks the workers were made of, their paths, and the vertices each compiled into. */
    final List<Block<?, ?>> workers;
    final List<String> workerPaths;
    final List<List<Vertex>> workerVertices;

    FarmShape(String where, Vertex emitter, Vertex collector, Collect collect, Dispatch dispatch, int window,
              boolean workersFeedBack, List<Block<?, ?>> workers, List<String> workerPaths,
              List<List<Vertex>> workerVertices) {
        this.where = where;
        this.emitter = emitter;
        this.collector = collector;
        this.collect = collect;
        this.dispatch = dispatch;
        this.window = window;
        this.workersFeedBack = workersFeedBack;
        this.workers = List.copyOf(workers);
        this.workerPaths = List.copyOf(workerPaths);
        this.workerVertices = List.copyOf(workerVertices);
    }
}
