/**
 * The data-parallel layer ({@code org.bbflow.core.par}) against what a Java user writes instead, in
 * the same run: {@code IntStream.parallel()}, a {@code ForkJoinPool} of {@code RecursiveAction}s or
 * {@code RecursiveTask}s, and the plain sequential loop.
 */
package org.bbflow.bench.par;
