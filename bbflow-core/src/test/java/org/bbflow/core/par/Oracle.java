package org.bbflow.core.par;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bbflow.testing.TestSeed;

/** Test support: the sequential loops the parallel ones are checked against, and the seed. */
final class Oracle {
    private Oracle() {
    }

    /** The seed of a randomised test, from the run's one seed (-Dbbflow.seed; see TestSeed), printed. */
    static long seed(String test) {
        long seed = TestSeed.current();
        System.out.println(test + ": seed " + seed + " (rerun with -Dbbflow.seed=" + TestSeed.root() + ")");
        return seed;
    }

    static Random random(String test) {
        return new Random(seed(test));
    }

    /** The indices of {@code for (i = first; step > 0 ? i < last : i > last; i += step)}, computed without overflow. */
    static List<Long> indices(long first, long last, long step, int limit) {
        List<Long> out = new ArrayList<>();
        long i = first;
        while (step > 0 ? i < last : i > last) {
            out.add(i);
            if (out.size() > limit) {
                throw new IllegalArgumentException("oracle range too long");
            }
            long next = i + step;
            if (step > 0 ? next < i : next > i) {
                break; // the next index would overflow: past every long, so past last
            }
            i = next;
        }
        return out;
    }
}
