/** Shared benchmark support: the thesis's work kernel, channel adapters, peer threads, the CPU-time profiler. */
package org.bbflow.bench.support;
