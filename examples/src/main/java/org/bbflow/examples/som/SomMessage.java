package org.bbflow.examples.som;

/**
 * The packets of the parallel self-organizing map (the thesis's SOMData): commands from the
 * emitter, results to the collector, winners back through the feedback channel, and learning
 * requests and acknowledgements between neighbouring workers.
 */
public sealed interface SomMessage {

    /** Emitter to every worker: find your neuron closest to sample {@code t}. */
    record Search(int t, double[] x) implements SomMessage {
    }

    /** Worker to collector: my closest neuron to sample {@code t} (index in the whole map). */
    record LocalBest(int t, int worker, int index, double distance) implements SomMessage {
    }

    /** Collector to emitter (feedback): the winner of sample {@code t} over the whole map. */
    record Winner(int t, int index) implements SomMessage {
    }

    /**
     * Emitter to the winner's worker, and that worker to its neighbours over their channels: move
     * the neurons around {@code (bmuRow, bmuCol)} towards {@code x}.
     */
    record Learn(int t, double[] x, int bmuRow, int bmuCol, double alpha, int radius) implements SomMessage {
    }

    /** Emitter to a neighbour of the winner's worker: take one learning request from worker {@code from}. */
    record Listen(int t, int from) implements SomMessage {
    }

    /** Neighbour to the winner's worker (over their channel): your request is applied. */
    record NeighbourDone(int t) implements SomMessage {
    }

    /** Winner's worker to collector: sample {@code t} is learnt, here and in the neighbours it reached. */
    record Learned(int t, int index) implements SomMessage {
    }
}
