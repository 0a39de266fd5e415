package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainTest {

    private static List<String> run(int expectedStatus, String... argv) {
        List<String> lines = new ArrayList<>();
        assertEquals(expectedStatus, Main.run(argv, Output.into(lines)), String.join("\n", lines));
        return lines;
    }

    @Test
    void helpListsEveryCommand() {
        String help = String.join("\n", run(0, "--help"));
        for (String command : List.of("demo", "thesis", "som", "compress", "testbench", "bkd")) {
            assertTrue(help.contains("  " + command + " "), "help lacks " + command + ":\n" + help);
        }
    }

    @Test
    void eachCommandHasItsOwnHelp() {
        assertTrue(run(0, "demo", "--help").get(0).startsWith("demo "));
        assertTrue(run(0, "help", "som").get(0).startsWith("som "));
    }

    @Test
    void unknownCommandsAndOptionsAreUsageErrors() {
        run(2, "no-such-command");
        run(2, "demo", "--itmes", "3");
        run(2, "demo", "--items", "-1");
        run(2);
    }

    @Test
    void smallDemoRunsAndReportsMatchingResults() {
        List<String> out = run(0, "demo", "--items", "40", "--width", "40", "--work", "50", "--workers", "2",
                "--no-progress");
        String text = String.join("\n", out);
        assertTrue(text.contains("farm 2w"), text);
        assertEquals(2, out.stream().filter(l -> l.endsWith("same rows, in order")).count(), text);
        assertTrue(text.contains("pipeline/farm[1]/worker-1"), "no per-node table:\n" + text);
    }

    @Test
    void thesisListAndOneExample() {
        assertTrue(run(0, "thesis", "list").get(0).contains("ordered-labels"));
        List<String> out = run(0, "thesis", "three-stage", "--items", "3");
        assertEquals(List.of("== three-stage", "sink got 2", "sink got 4", "sink got 6"), out);
    }
}
