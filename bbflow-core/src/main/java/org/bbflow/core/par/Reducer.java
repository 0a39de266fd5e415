package org.bbflow.core.par;

/**
 * One step of an object reduction: folds iteration {@code index} into a worker's accumulator (the
 * body of FastFlow's {@code parallel_reduce}).
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface Reducer<R> {
    /**
     * Folds one iteration into the accumulator. Each worker starts from the identity; return a new
     * value rather than change the identity (every worker is given the same identity object).
     *
     * @param accumulator the worker's partial result so far (the identity at first)
     * @param index the iteration's index
     * @return the new partial result
     */
    R apply(R accumulator, long index);
}
