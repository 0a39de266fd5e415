/** The data flow of an automotive test bench: rate-driven sensors, processing, recorder and monitor. */
package org.bbflow.examples.testbench;
