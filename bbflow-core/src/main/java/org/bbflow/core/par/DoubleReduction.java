package org.bbflow.core.par;

import java.util.function.DoubleBinaryOperator;

/** A reduction into a double, one accumulator per participant, combined in participant order. */
final class DoubleReduction extends LoopJob {
    private final DoubleReducer body;
    /** Participant s's partial result, written only by participant s. */
    private final double[] partials;

    DoubleReduction(long first, long last, long step, Schedule schedule, int parallelism, double identity,
            DoubleReducer body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
        this.partials = new double[workers()];
        java.util.Arrays.fill(partials, identity);
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        DoubleReducer b = body;
        long s = step;
        long i = index(from);
        double acc = partials[slot];
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
    double result(DoubleBinaryOperator combine) {
        double r = partials[0];
        for (int w = 1; w < partials.length; w++) {
            r = combine.applyAsDouble(r, partials[w]);
        }
        return r;
    }
}
