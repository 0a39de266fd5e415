package org.bbflow.testing;

/**
 * Which tier of the test suite runs. The default tier ({@code ./mvnw -B verify}) runs every test in
 * its short form and leaves out the tests tagged {@link #SLOW}; the long tier
 * ({@code ./mvnw -B verify -Plong-tests}) runs the slow tests too and gives the stress tests their
 * full size. A stress test sizes itself with {@link #pick(long, long)}, so the default build still
 * runs every check it makes, on less data.
 */
public final class TestTier {
    /** The JUnit tag of tests that run only in the long tier. */
    public static final String SLOW = "slow";
    /** The system property the long-tests profile sets. */
    public static final String PROPERTY = "bbflow.tests.long";

    private static final boolean LONG = Boolean.getBoolean(PROPERTY);

    private TestTier() {
    }

    /**
     * Whether this run is the long tier.
     *
     * @return true under {@code -Plong-tests} (or {@code -Dbbflow.tests.long=true})
     */
    public static boolean isLong() {
        return LONG;
    }

    /**
     * A size for this tier.
     *
     * @param shortForm the size in the default tier
     * @param longForm the size in the long tier
     * @return {@code longForm} in the long tier, else {@code shortForm}
     */
    public static long pick(long shortForm, long longForm) {
        return LONG ? longForm : shortForm;
    }

    /**
     * A size for this tier.
     *
     * @param shortForm the size in the default tier
     * @param longForm the size in the long tier
     * @return {@code longForm} in the long tier, else {@code shortForm}
     */
    public static int pick(int shortForm, int longForm) {
        return LONG ? longForm : shortForm;
    }
}
