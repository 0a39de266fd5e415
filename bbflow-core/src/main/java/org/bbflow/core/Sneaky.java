package org.bbflow.core;

/** Rethrows a checked exception from a method that cannot declare it (it reaches the node runner). */
final class Sneaky {
    private Sneaky() {
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> E rethrow(Throwable t) throws E {
        throw (E) t;
    }
}
