/**
 * FastFlow's data-parallel layer: loops and reductions on a pool of workers kept between calls
 * ({@link org.bbflow.core.par.ParallelFor}, FastFlow's {@code ParallelFor} and
 * {@code ParallelForReduce}), a node that runs a parallel loop per item
 * ({@link org.bbflow.core.par.MapNode}, {@code ff_Map}), divide and conquer
 * ({@link org.bbflow.core.par.DivideAndConquer}, {@code ff_DC}) and a farm run in the background and
 * fed from the caller's thread ({@link org.bbflow.core.par.Accelerator}, FastFlow's accelerator).
 */
package org.bbflow.core.par;
