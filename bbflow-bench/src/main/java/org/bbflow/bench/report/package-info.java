/** Reading JMH JSON results and drawing the report's charts (used by {@link org.bbflow.bench.Report}). */
package org.bbflow.bench.report;
