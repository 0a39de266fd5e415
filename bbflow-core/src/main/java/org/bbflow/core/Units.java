package org.bbflow.core;

/** Item markers of ordered farms. A unit is the output of one input item: 0, 1 or many items. */
final class Units {
    private Units() {
    }

    /** A unit with no item. */
    static final Object SKIP = new Marker("SKIP");
    /** Starts a unit of several items. */
    static final Object START = new Marker("START");
    /** Ends a unit of several items. */
    static final Object END = new Marker("END");
    /** Returned by a strict read when the channel reached end of stream. */
    static final Object EOS = new Marker("EOS");

    private static final class Marker {
        private final String name;

        Marker(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
