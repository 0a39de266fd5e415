/**
 * Runnable BBFlow programs and the command-line entry point.
 */
package org.bbflow.examples;
