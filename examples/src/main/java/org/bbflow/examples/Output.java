package org.bbflow.examples;

import java.util.List;

/**
 * Where a program prints what the user reads: {@link #stdout()} on the command line,
 * {@link #silent()} or a list ({@code lines::add}) in tests.
 */
@FunctionalInterface
public interface Output {

    /** Prints one line. Must be safe to call from several threads. */
    void println(String line);

    /** Prints to {@code System.out}. */
    static Output stdout() {
        return line -> {
            synchronized (System.out) {
                System.out.println(line);
            }
        };
    }

    /** Prints nothing. */
    static Output silent() {
        return line -> { };
    }

    /** Adds every line to {@code lines}, which the caller makes thread-safe if needed. */
    static Output into(List<String> lines) {
        return line -> {
            synchronized (lines) {
                lines.add(line);
            }
        };
    }
}
