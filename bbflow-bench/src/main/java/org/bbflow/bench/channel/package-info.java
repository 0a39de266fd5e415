/**
 * Channel benchmarks: two-thread throughput, ping-pong latency, idle cost, and a single-thread
 * diagnostic of the per-item cost of BBFlow's channel layer over JCTools.
 */
package org.bbflow.bench.channel;
