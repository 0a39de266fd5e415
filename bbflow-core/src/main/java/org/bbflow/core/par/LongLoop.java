package org.bbflow.core.par;

import java.util.function.LongConsumer;

/** A loop whose body takes a long index (FastFlow's {@code parallel_for}). */
final class LongLoop extends LoopJob {
    private final LongConsumer body;

    LongLoop(long first, long last, long step, Schedule schedule, int parallelism, LongConsumer body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        LongConsumer b = body;
        long s = step;
        long i = index(from);
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
