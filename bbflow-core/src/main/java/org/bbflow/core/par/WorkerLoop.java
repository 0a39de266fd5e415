package org.bbflow.core.par;

/** A loop whose body is also told the worker running it (FastFlow's {@code parallel_for_thid}). */
final class WorkerLoop extends LoopJob {
    private final WorkerBody body;

    WorkerLoop(long first, long last, long step, Schedule schedule, int parallelism, WorkerBody body) {
        super(first, last, step, schedule, parallelism);
        this.body = body;
    }

    @Override
    boolean piece(int slot, long from, int len, int worker) {
        WorkerBody b = body;
        long s = step;
        long i = index(from);
        int k = 0;
        try {
            for (; k < len; k++) {
                b.accept(i, worker);
                i += s;
            }
            return true;
        } catch (Throwable t) {
            fail(t, from + k, from, from + len, worker);
            return false;
        }
    }
}
