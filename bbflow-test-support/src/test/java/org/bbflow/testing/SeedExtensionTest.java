package org.bbflow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** The seed extension, seen from outside: sample tests run through the Jupiter engine. */
class SeedExtensionTest {

    /**
     * The build itself registers the extension for every test (this test is run by Surefire, not by the
     * engine test kit): Surefire hands JUnit the auto-detection switch only from
     * {@code <properties><configurationParameters>}; a bare {@code <configurationParameters>} element is
     * ignored without a word, and then no test of any module got its own seed or a reproduce line (as from
     * 0877b16 until 2026-11-27, when a Bkd-tree test failed in CI with no root seed to rerun it).
     */
    @Test
    void theBuildRegistersTheExtensionForThisTest() {
        assertTrue(TestSeed.testId().contains("theBuildRegistersTheExtensionForThisTest"),
                "the seed extension did not enter this test (its id is '" + TestSeed.testId() + "'): is"
                        + " junit.jupiter.extensions.autodetection.enabled set in the POM's Surefire <properties>?");
    }

    static final Map<String, Long> SEEN = new ConcurrentHashMap<>();

    /** Samples (a static nested class: Surefire does not run it by itself). */
    static class Samples {
        @Test
        void drawsAndFails() {
            SEEN.put("drawsAndFails", TestSeed.current());
            throw new AssertionError("failed on purpose");
        }

        @Test
        void failsWithoutDrawing() {
            throw new AssertionError("failed on purpose");
        }

        @Test
        void draws() {
            SEEN.put("draws", TestSeed.current());
        }
    }

    private static List<Throwable> failures(String method) {
        List<Throwable> out = new ArrayList<>();
        for (Event e : EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectMethod(Samples.class, method)).execute().testEvents().failed().list()) {
            e.getRequiredPayload(TestExecutionResult.class).getThrowable().ifPresent(out::add);
        }
        return out;
    }

    @Test
    void aFailureOfATestThatDrewCarriesTheReproduceLine() {
        List<Throwable> failed = failures("drawsAndFails");
        assertEquals(1, failed.size());
        String suppressed = Arrays.toString(failed.get(0).getSuppressed());
        assertTrue(suppressed.contains("NOTE: reproduce with: ./mvnw -B verify -pl bbflow-test-support -am"
                + " -Dtest='Samples#drawsAndFails' -Dsurefire.failIfNoSpecifiedTests=false -Dbbflow.seed="
                + TestSeed.root()), suppressed);
    }

    @Test
    void aFailureOfATestThatDidNotDrawIsLeftAsItIs() {
        List<Throwable> failed = failures("failsWithoutDrawing");
        assertEquals(1, failed.size());
        assertEquals(0, failed.get(0).getSuppressed().length);
    }

    @Test
    void aTestsSeedDependsOnTheRootAndTheTestOnly() {
        failures("draws");
        long first = SEEN.get("draws");
        failures("drawsAndFails");
        failures("draws");
        assertEquals(first, SEEN.get("draws"), "the same test, the same root: the same seed");
        assertNotEquals(first, SEEN.get("drawsAndFails"), "two tests, one seed");
    }
}
