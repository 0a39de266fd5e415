package org.bbflow.examples;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** What every subcommand shares: where it prints and usage errors that name the option. */
abstract class Subcommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the program prints; set by {@link Main} when it creates the command. */
    Output out = Output.stdout();

    /** A usage error (exit status 2) with {@code message}. */
    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Fails with a usage error naming {@code option} if {@code value < min}. */
    void atLeast(String option, double value, double min) {
        if (!(value >= min)) {
            throw usage(option + " must be >= " + number(min) + ", got " + number(value));
        }
    }

    /** Fails with a usage error naming {@code option} if {@code value} is outside {@code min..max}. */
    void within(String option, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw usage(option + " must be between " + number(min) + " and " + number(max) + ", got " + number(value));
        }
    }

    /** Runs a record's cross-option check, turning its complaint into a usage error. */
    <T> T checked(java.util.function.Supplier<T> validated) {
        try {
            return validated.get();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e18 ? Long.toString((long) v) : Double.toString(v);
    }
}
