/**
 * Runnable BBFlow programs and the command-line entry point, {@link org.bbflow.examples.Main}.
 *
 * <p>Each program lives in its own sub-package, has a static {@code run(options)} returning a result
 * object (what its test checks) and a {@code main(options, Output)} that prints for a person (its
 * command line, parsed with picocli, is a {@code *Command} class of this package):
 * {@code demo} (Mandelbrot rows through an ordered farm), {@code thesis} (the thesis manual's
 * examples), {@code som} (self-organizing map), {@code nbuf} (parallel compression with n-buffered
 * I/O), {@code testbench} (sensor data flow), {@code bkd} (Bkd-tree ingest) and, in
 * {@code distributed}, the two sides of a farm spread over JVMs.
 */
package org.bbflow.examples;
