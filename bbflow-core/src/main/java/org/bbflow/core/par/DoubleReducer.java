package org.bbflow.core.par;

/**
 * One step of a double reduction: folds iteration {@code index} into a worker's accumulator, without
 * boxing (the body of FastFlow's {@code parallel_reduce} over a {@code double}).
 */
@FunctionalInterface
public interface DoubleReducer {
    /**
     * Folds one iteration into the accumulator.
     *
     * @param accumulator the worker's partial result so far (the identity at first)
     * @param index the iteration's index
     * @return the new partial result
     */
    double apply(double accumulator, long index);
}
