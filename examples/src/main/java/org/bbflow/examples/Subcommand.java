package org.bbflow.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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

    /**
     * Fails unless {@code file} is an existing file to read. A directory exists, so "no such file" (or the
     * JDK's bare "Is a directory") would mislead: it is named as what it is. An error of the run (status 1,
     * one line by {@link Main#describe}), as a missing file is, not a usage error.
     */
    static void inputFile(Path file) throws NoSuchFileException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, Files.isDirectory(file) ? "a directory, not a file" : null);
        }
    }

    /**
     * Checks a file the run will write, before anything runs: a directory, or a file in a directory that
     * does not exist, failed only once the run wrote its first bytes, after its header (an error of the
     * run, status 1, as {@link #inputFile}); the file the run reads as well ({@code input}, may be null)
     * would be truncated before it was read, so that is a usage error naming both options.
     */
    void outputFile(String option, Path file, String inputOption, Path input) throws IOException {
        if (Files.isDirectory(file)) {
            throw new NoSuchFileException(file.toString(), null, "a directory, not a file");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new NoSuchFileException(file.toString(), null, "its directory " + parent
                    + (Files.exists(parent) ? " is a file, not a directory" : " does not exist"));
        }
        // isSameFile sees through links and different spellings of one path; only an existing output can be it
        if (input != null && Files.exists(file) && Files.isSameFile(file, input)) {
            throw usage(option + " " + file + " is the " + inputOption + " file: writing it would truncate the input"
                    + " before it is read; give another " + option);
        }
    }

    /**
     * Fails with a usage error if {@code bytes} the run must write into {@code directory} (a file's
     * directory, or null for the system's temporary directory, where the runs keep their scratch files)
     * exceed the space free there now: such a run failed only once the disk was full, minutes in and after
     * filling it ("No space left on device"). Free space can change while the run goes on; this catches
     * the sizes that cannot fit at all, not every full disk. {@code bytes} is a double: the product it
     * comes from may pass a long's range.
     */
    void fitsOnDisk(String what, double bytes, Path directory) throws IOException {
        Path dir = directory != null ? directory : Path.of(System.getProperty("java.io.tmpdir"));
        long free = Files.getFileStore(dir).getUsableSpace();
        if (bytes > free) {
            throw usage(String.format(java.util.Locale.ROOT, "%s makes %,.0f bytes to write in %s, which has %,d bytes"
                    + " free", what, bytes, dir, free));
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 0x1p63 ? Long.toString((long) v) : Double.toString(v);
    }
}
