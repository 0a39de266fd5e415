/** Parallel file compression with n-buffered I/O: bounded memory, ordered output, verified. */
package org.bbflow.examples.nbuf;
