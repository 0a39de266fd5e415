package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainTest {
    private static final List<String> COMMANDS =
            List.of("demo", "thesis", "som", "compress", "testbench", "bkd", "bkd-check", "worker", "master", "launch");

    @TempDir
    Path dir;

    /** What one run printed: standard output and standard error lines. */
    record Printed(List<String> out, List<String> err) {
        String outText() {
            return String.join("\n", out);
        }

        String errText() {
            return String.join("\n", err);
        }
    }

    private static Printed run(int expectedStatus, String... argv) {
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        int status = Main.run(argv, Output.into(out), Output.into(err));
        assertEquals(expectedStatus, status, "status of " + List.of(argv) + "\nout:\n" + String.join("\n", out)
                + "\nerr:\n" + String.join("\n", err));
        return new Printed(out, err);
    }

    @Test
    void helpListsEveryCommandAndNamesTheJar() {
        String help = run(0, "--help").outText();
        for (String command : COMMANDS) {
            assertTrue(help.contains("  " + command + " "), "help lacks " + command + ":\n" + help);
        }
        assertTrue(help.contains("java -jar bbflow-examples.jar"), help);
        assertFalse(help.contains("Main"), help);
    }

    @Test
    void helpOnEveryCommandPrintsItsUsageAndRunsNothing() {
        for (String command : COMMANDS) {
            for (String flag : List.of("-h", "--help")) {
                Printed p = run(0, command, flag);
                assertTrue(p.out().get(0).startsWith("Usage: java -jar bbflow-examples.jar " + command),
                        command + " " + flag + ":\n" + p.outText());
                assertTrue(p.err().isEmpty(), p.errText());
            }
        }
        // -h among other options still only prints the usage (the demo would print its table)
        Printed p = run(0, "demo", "--items", "5", "-h");
        assertFalse(p.outText().contains("same rows"), p.outText());
        assertTrue(run(0, "help", "som").out().get(0).startsWith("Usage: java -jar bbflow-examples.jar som"));
    }

    @Test
    void versionPrintsTheProjectVersion() {
        for (List<String> argv : List.of(List.of("--version"), List.of("-V"), List.of("demo", "--version"))) {
            Printed p = run(0, argv.toArray(String[]::new));
            assertTrue(p.out().get(0).matches("bbflow-examples \\d+\\.\\d+\\.\\d+.*"), p.outText());
            assertFalse(p.outText().contains("Usage"), p.outText());
        }
    }

    @Test
    void unknownCommandsOptionsAndStrayWordsAreUsageErrors() {
        assertTrue(run(2, "no-such-command").errText().contains("no-such-command"));
        assertTrue(run(2, "demo", "--itmes", "3").errText().contains("--itmes"));
        assertTrue(run(2, "demo", "stray").errText().contains("stray"));
        assertTrue(run(2, "thesis", "three-stage", "extra").errText().contains("extra"));
        assertTrue(run(2, "thesis", "no-such-example").errText().contains("no-such-example"));
        assertTrue(run(2, "demo", "--no-progress=maybe").errText().contains("--no-progress"));
        assertTrue(run(2).errText().contains("missing command"));
        Printed p = run(2, "som", "--bogus");
        assertTrue(p.err().get(0).startsWith("error: "), p.errText());
        assertTrue(p.errText().contains("som --help"), "no pointer to the help:\n" + p.errText());
        assertTrue(p.out().isEmpty(), p.outText());
    }

    @Test
    void rangeAndFormatErrorsNameTheOption() {
        assertEquals("error: --items must be >= 1, got -1", run(2, "demo", "--items", "-1").err().get(0));
        assertEquals("error: --width must be >= 1, got 0", run(2, "demo", "--width", "0").err().get(0));
        assertTrue(run(2, "demo", "--items", "lots").err().get(0).contains("--items"));
        assertEquals("error: --level must be between 0 and 9, got 12",
                run(2, "compress", "--level", "12").err().get(0));
        assertTrue(run(2, "compress", "--chunk", "12q").err().get(0).contains("--chunk"));
        assertEquals("error: --readers must be between 0 and 4096, got -2", run(2, "bkd", "--readers", "-2").err().get(0));
        assertEquals("error: --sensors must be between 1 and 4096, got 0", run(2, "testbench", "--sensors", "0").err().get(0));
        assertTrue(run(2, "som", "--rows", "8", "--radius", "8", "--workers", "2").err().get(0).contains("--radius"));
        assertEquals("error: --threads must be between 1 and 4096, got 0", run(2, "worker", "--threads", "0").err().get(0));
        assertTrue(run(2, "master", "--items", "10").err().get(0).contains("--workers"), "--workers is required");
    }

    @Test
    void aMissingFileIsOneLineWithoutAStackTrace() {
        String missing = dir.resolve("no-such-file.log").toString();
        for (List<String> argv : List.of(List.of("compress", "--input", missing, "--no-progress"),
                List.of("bkd", "--csv", missing, "--no-progress"),
                List.of("worker", "--secret-file", missing))) {
            Printed p = run(1, argv.toArray(String[]::new));
            assertEquals(List.of("error: " + argv.get(0) + ": no such file: " + missing), p.err(), p.errText());
        }
    }

    @Test
    void numbersTakeUnderscoresAndSizesTakeSuffixes() {
        // 1_000 rows would be accepted; a too-small memory for the chunk shows the sizes were read as 64k and 64k
        String err = run(2, "compress", "--memory", "64k", "--chunk", "64k", "--size", "1_000").errText();
        assertTrue(err.contains("--memory 65536") && err.contains("--chunk 65536"), err);
    }

    @Test
    void smallDemoRunsAndReportsMatchingResults() {
        List<String> out = run(0, "demo", "--items", "40", "--width", "40", "--work", "50", "--workers", "2",
                "--no-progress").out();
        String text = String.join("\n", out);
        assertTrue(text.contains("farm 2w"), text);
        assertEquals(2, out.stream().filter(l -> l.endsWith("same rows, in order")).count(), text);
        assertTrue(text.contains("pipeline/farm[1]/worker-1"), "no per-node table:\n" + text);
    }

    @Test
    void thesisListAndOneExample() {
        assertTrue(run(0, "thesis", "list").out().get(0).contains("ordered-labels"));
        assertTrue(run(0, "thesis").out().get(0).contains("ordered-labels"), "list is the default");
        List<String> out = run(0, "thesis", "three-stage", "--items", "3").out();
        assertEquals(List.of("== three-stage", "sink got 2", "sink got 4", "sink got 6"), out);
    }

    @Test
    void smallTestBenchRunsThroughTheCommandLine() {
        String text = run(0, "testbench", "--sensors", "2", "--rate", "50_000", "--samples", "5000", "--batch", "100",
                "--no-progress").outText();
        assertTrue(text.contains("lost: 0"), text);
        assertTrue(text.contains("p99.9"), text);
    }
}
