/**
 * Building-block benchmarks on the thesis's workloads: the two-stage pipeline (Table 1), the farm
 * (Code 11), the pipeline of worker stages (Code 27), oversubscription, and the sequential loop they
 * are compared with.
 */
package org.bbflow.bench.flow;
