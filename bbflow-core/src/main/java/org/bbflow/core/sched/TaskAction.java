package org.bbflow.core.sched;

/**
 * What a worker does with one task. One instance per worker, so it may keep per-worker state.
 *
 * @param <T> the task payload type
 * @param <R> the result type; a null result is not sent on
 */
@FunctionalInterface
public interface TaskAction<T, R> {
    /**
     * Runs the task; an exception fails the flow.
     *
     * @param task the task
     * @return the result, or null for none
     * @throws Exception to fail the flow
     */
    R run(T task) throws Exception;
}
