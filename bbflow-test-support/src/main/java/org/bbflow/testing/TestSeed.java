package org.bbflow.testing;

import java.util.Random;
import java.util.SplittableRandom;

/**
 * The one seed of every randomized test (as Lucene's test framework has {@code tests.seed}).
 *
 * <p>A test run has a root seed: {@code -Dbbflow.seed=N} (decimal, or hexadecimal with {@code 0x}),
 * else a random one. Each test derives its own seed from the root and its unique id (class, method
 * and, for parameterized and repeated tests, the invocation), so a test's randomness does not
 * depend on which other tests ran before it, and {@code -Dbbflow.seed=N} with {@code -Dtest=...}
 * reruns one test with exactly the data it failed with. A failing test that drew from this class
 * gets the line to rerun it appended to its failure and printed (see {@link SeedExtension}).
 *
 * <p>Use {@link #random()} (or {@link #splittable()}) where a test made {@code new Random(seed)};
 * {@link #mix(long)} for several independent streams in one test (a thread each, a case each).
 */
public final class TestSeed {
    /** The system property that fixes the root seed. */
    public static final String PROPERTY = "bbflow.seed";

    private static final long ROOT = readRoot();
    private static volatile String testId = "";
    private static volatile boolean drawn;

    private TestSeed() {
    }

    private static long readRoot() {
        String s = System.getProperty(PROPERTY);
        if (s == null || s.isBlank()) {
            return new SplittableRandom().nextLong();
        }
        s = s.trim();
        try {
            return s.startsWith("0x") || s.startsWith("0X") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be a long (decimal, or hexadecimal with 0x): '" + s + "'", e);
        }
    }

    /**
     * The run's root seed ({@code -Dbbflow.seed}, or random).
     *
     * @return the root seed
     */
    public static long root() {
        return ROOT;
    }

    /**
     * The current test's seed: the root mixed with the test's unique id.
     *
     * @return the seed of the running test
     */
    public static long current() {
        drawn = true;
        return mixBits(ROOT ^ mixBits(testId.hashCode() * 0x9E3779B97F4A7C15L + testId.length()));
    }

    /**
     * A seed for one of several independent streams of the current test.
     *
     * @param salt what tells the streams apart (a thread index, a case number, a former fixed seed)
     * @return a seed derived from the current test's seed and the salt
     */
    public static long mix(long salt) {
        return mixBits(current() + 0x9E3779B97F4A7C15L * (salt + 1));
    }

    /**
     * A {@link Random} seeded with {@link #current()}.
     *
     * @return a new generator
     */
    public static Random random() {
        return new Random(current());
    }

    /**
     * A {@link SplittableRandom} seeded with {@link #current()}.
     *
     * @return a new generator
     */
    public static SplittableRandom splittable() {
        return new SplittableRandom(current());
    }

    /** Stafford's variant 13 of the 64-bit finalizer of MurmurHash3 (as SplittableRandom mixes). */
    private static long mixBits(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static void enter(String id) {
        testId = id;
        drawn = false;
    }

    static boolean drawn() {
        return drawn;
    }

    /** The unique id of the test the extension last entered ("" if it never ran). */
    static String testId() {
        return testId;
    }
}
