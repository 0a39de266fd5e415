package org.bbflow.core.par;

/**
 * A loop whose body gets whole chunks and walks them itself (FastFlow's {@code parallel_for_idx}).
 * The chunks are the schedule's, uncut: one call per chunk (per worker, for static blocks).
 */
final class ChunkLoop extends LoopJob {
    private final ChunkBody body;

    ChunkLoop(long first, long last, long step, Schedule schedule, int parallelism, ChunkBody body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
        try {
            Math.addExact(first, Math.multiplyExact(n, step));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the range " + first + " to " + last + " by " + step
                    + " ends past the long range: a chunk's exclusive end would not fit a long", e);
        }
    }

    @Override
    boolean run(int slot, long from, long to, int worker) {
        if (from >= to) { // static blocks of an empty range: the body sees no chunk, as with the other schedules
            return true;
        }
        try {
            body.accept(index(from), index(to), worker);
            return true;
        } catch (Throwable t) {
            fail(t, from, from, to, worker);
            return false;
        }
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        throw new AssertionError("a chunk loop runs whole chunks");
    }
}
