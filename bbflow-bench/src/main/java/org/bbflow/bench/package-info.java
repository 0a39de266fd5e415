/**
 * JMH benchmarks of BBFlow against same-run baselines.
 */
package org.bbflow.bench;
