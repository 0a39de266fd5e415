/**
 * Micrometer metrics for BBFlow: {@link org.bbflow.micrometer.FlowMetrics} binds the per-node
 * statistics of a running {@link org.bbflow.core.Flow} (items in and out, busy and idle time, waits
 * on empty inputs and full outputs) to any Micrometer {@code MeterRegistry}.
 */
package org.bbflow.micrometer;
