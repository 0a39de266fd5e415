package org.bbflow.core.par;

/**
 * One step of a long reduction: folds iteration {@code index} into a worker's accumulator, without
 * boxing (the body of FastFlow's {@code parallel_reduce} over a {@code long}).
 */
@FunctionalInterface
public interface LongReducer {
    /**
     * Folds one iteration into the accumulator.
     *
     * @param accumulator the worker's partial result so far (the identity at first)
     * @param index the iteration's index
     * @return the new partial result
     */
    long apply(long accumulator, long index);
}
