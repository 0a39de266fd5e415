package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

/** Runs of the command line that must be refused as usage errors, for the tests of bad input. */
final class UsageErrors {
    private UsageErrors() {
    }

    /** The first line of standard error of a run that must end with status 2 (a usage error). */
    static String refused(String... argv) {
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        int status = Main.run(argv, Output.into(out), Output.into(err));
        assertEquals(2, status, "status of " + List.of(argv) + "\nout:\n" + String.join("\n", out) + "\nerr:\n"
                + String.join("\n", err));
        return err.isEmpty() ? "" : err.get(0);
    }
}
