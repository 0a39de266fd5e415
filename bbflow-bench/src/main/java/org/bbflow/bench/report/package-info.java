/** Reading JMH JSON results (with Gson) and drawing the report's charts (XChart), used by {@link org.bbflow.bench.Report}. */
package org.bbflow.bench.report;
