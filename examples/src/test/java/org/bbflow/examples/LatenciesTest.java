package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LatenciesTest {

    private static void near(long expected, long actual) {
        assertTrue(Math.abs(expected - actual) <= expected / 500 + 1, "expected ~" + expected + ", got " + actual);
    }

    @Test
    void percentilesOfKnownValues() {
        Latencies l = new Latencies();
        for (long v = 1; v <= 10_000; v++) {
            l.record(v * 1_000); // 1 us .. 10 ms
        }
        assertEquals(10_000, l.count());
        near(5_000_000, l.percentile(50));
        near(9_900_000, l.percentile(99));
        near(10_000_000, l.max());
        assertTrue(l.summary().startsWith("p50 500") && l.summary().endsWith("max 10.0 ms"), l.summary());
    }

    @Test
    void anExpectedIntervalFillsInTheSamplesAStallSwallowed() {
        Latencies l = new Latencies();
        for (int i = 0; i < 99; i++) {
            l.record(10_000, 1_000_000); // 10 us each, one sample per millisecond intended
        }
        l.record(100_000_000, 1_000_000); // one 100 ms stall: 99 samples were not taken meanwhile
        assertEquals(99 + 100, l.count());
        assertTrue(l.percentile(75) >= 40_000_000, "the stall is invisible: " + l.summary());
    }

    @Test
    void mergeAddsRecorders() {
        Latencies a = new Latencies();
        Latencies b = new Latencies();
        a.record(1_000);
        b.record(3_000);
        b.record(-5); // a clock step: counted as 0
        Latencies all = Latencies.merge(a, b);
        assertEquals(3, all.count());
        assertEquals(0, all.percentile(0));
        near(3_000, all.max());
        assertEquals(0, new Latencies().percentile(99));
    }
}
