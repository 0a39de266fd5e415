/**
 * JMH benchmarks of the concurrent Bkd-tree: insert throughput, window queries and exact
 * k-nearest-neighbour queries against a brute-force scan and Lucene's BKD tree on the same points
 * (every benchmark checks its answers against brute force before measuring), and
 * {@link org.bbflow.bench.bkd.BkdFootprint}: memory per point of both and write amplification.
 */
package org.bbflow.bench.bkd;
