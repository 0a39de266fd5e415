/**
 * Baselines the benchmarks compare BBFlow with, in the same run: a re-implementation of the
 * thesis's channel ({@link org.bbflow.bench.baseline.ThesisChannel}).
 */
package org.bbflow.bench.baseline;
