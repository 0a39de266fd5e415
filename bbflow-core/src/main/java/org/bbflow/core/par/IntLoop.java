package org.bbflow.core.par;

import java.util.function.IntConsumer;

/** A loop over an int range whose body takes an int index. */
final class IntLoop extends LoopJob {
    private final IntConsumer body;

    IntLoop(int first, int last, int step, Schedule schedule, int parallelism, IntConsumer body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        IntConsumer b = body;
        int s = (int) step;
        int i = (int) index(from);
        int k = 0;
        try {
            for (; k < len; k++) {
                b.accept(i);
                i += s;
            }
            return true;
        } catch (Throwable t) {
            fail(t, from + k, from, from + len, worker);
            return false;
        }
    }
}
