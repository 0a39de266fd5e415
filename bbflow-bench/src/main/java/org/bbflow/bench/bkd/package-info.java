/**
 * JMH benchmarks of the concurrent Bkd-tree: insert throughput, and window queries against a
 * brute-force scan and Lucene's BKD tree on the same points.
 */
package org.bbflow.bench.bkd;
