package org.bbflow.core.par;

import java.util.Arrays;
import java.util.function.BinaryOperator;

/** A reduction into an object, one accumulator per participant, combined in participant order. */
final class ObjectReduction<R> extends LoopJob {
    private final Reducer<R> body;
    /** Participant s's partial result, written only by participant s. */
    private final Object[] partials;

    ObjectReduction(long first, long last, long step, Schedule schedule, int parallelism, R identity,
            Reducer<R> body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
        this.partials = new Object[workers()];
        Arrays.fill(partials, identity);
    }

    @Override
    @SuppressWarnings("unchecked")
    boolean piece(int slot, long from, int len, int worker) {
        Reducer<R> b = body;
        long s = step;
        long i = index(from);
        R acc = (R) partials[slot];
        int k = 0;
        try {
            for (; k < len; k++) {
                acc = b.apply(acc, i);
                i += s;
            }
            partials[slot] = acc;
            return true;
        } catch (Throwable t) {
            fail(t, from + k, from, from + len, worker);
            return false;
        }
    }

    /** The partial results combined in participant order; call once every participant is done. */
    @SuppressWarnings("unchecked")
    R result(BinaryOperator<R> combine) {
        R r = (R) partials[0];
        for (int w = 1; w < partials.length; w++) {
            r = combine.apply(r, (R) partials[w]);
        }
        return r;
    }
}
