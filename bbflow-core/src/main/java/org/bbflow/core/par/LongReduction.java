package org.bbflow.core.par;

import java.util.function.LongBinaryOperator;

/** A reduction into a long, one accumulator per participant, combined in participant order. */
final class LongReduction extends LoopJob {
    private final LongReducer body;
    /** Participant s's partial result, written only by participant s. */
    private final long[] partials;

    LongReduction(long first, long last, long step, Schedule schedule, int parallelism, long identity,
            LongReducer body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
        this.partials = new long[workers()];
        java.util.Arrays.fill(partials, identity);
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        LongReducer b = body;
        long s = step;
        long i = index(from);
        long acc = partials[slot];
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
    long result(LongBinaryOperator combine) {
        long r = partials[0];
        for (int w = 1; w < partials.length; w++) {
            r = combine.applyAsLong(r, partials[w]);
        }
        return r;
    }
}
