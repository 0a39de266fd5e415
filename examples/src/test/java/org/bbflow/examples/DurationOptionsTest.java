package org.bbflow.examples;

import static org.bbflow.examples.UsageErrors.refused;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every duration option of the command line, and the run length testbench derives from one, is
 * bounded (above 0, at most 365 days): a value out of range (NaN, Infinity, negative, zero, one that
 * overflows nanoseconds) is a usage error naming the option, before anything runs. Before,
 * {@code testbench --seconds 1e300} (or {@code Infinity}) ran for ever and {@code worker
 * --peer-timeout 9999999999s} failed as an error, not as a usage error.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DurationOptionsTest {
    @Test
    void testbenchSecondsOutOfRangeAreUsageErrors() {
        for (String s : List.of("1e300", "Infinity", "-Infinity", "NaN", "-1", "0", "31536001", "1e-12")) {
            String e = refused("testbench", "--no-progress", "--seconds", s);
            assertTrue(e.contains("--seconds"), s + ": " + e);
        }
    }

    @Test
    void testbenchRunLengthBeyondALongIsAUsageError() {
        // 1e12 samples/s for 365 days made 3.2e19 samples per sensor, beyond a long; --rate is now at most
        // 1e9 (one sample a nanosecond), so the product stays below 3.2e16 and the rate is what is refused
        String e = refused("testbench", "--no-progress", "--rate", "1000000000000", "--seconds", "31536000");
        assertTrue(e.contains("--rate") && e.contains("1000000000"), e);
        e = refused("testbench", "--no-progress", "--sensors", "4", "--samples", String.valueOf(Long.MAX_VALUE / 2));
        assertTrue(e.contains("--samples") && e.contains("--sensors"), e);
        // one sample a second for 31,710 years: the sensors sample at the rate, so this is a run length too
        e = refused("testbench", "--no-progress", "--rate", "1", "--samples", "1000000000000");
        assertTrue(e.contains("--samples") && e.contains("--rate") && e.contains("365 days"), e);
    }

    @Test
    void durationOptionsOutOfRangeAreUsageErrors() {
        for (String d : List.of("-5s", "0s", "PT-1S", "PT8785H", "9999999999s", "PT2562047788015216H", "153722867280912931m",
                "99999999999999999999s")) {
            for (String[] argv : List.of(new String[] {"launch", "--timeout", d, "job.json"},
                    new String[] {"launch", "--grace", d, "job.json"},
                    new String[] {"worker", "--peer-timeout", d},
                    new String[] {"master", "--workers", "127.0.0.1:1", "--peer-timeout", d})) {
                String option = argv[argv.length - (argv[0].equals("launch") ? 3 : 2)];
                if (option.equals("--grace") && d.equals("0s")) {
                    continue; // no grace at all is allowed
                }
                String e = refused(argv);
                assertTrue(e.contains(option), String.join(" ", argv) + ": " + e);
            }
        }
    }
}
