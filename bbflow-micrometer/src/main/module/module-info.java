/**
 * Micrometer meters for the per-node statistics of running BBFlow flows: an optional module, so
 * that the library's core does not depend on Micrometer.
 *
 * <p>Compiled after the tests and added to the jar at package time (the parent POM's
 * {@code module-descriptor} profile).
 */
module org.bbflow.micrometer {
    // Flow and RunStats appear in the public API (FlowMetrics' constructors).
    requires transitive org.bbflow.core;
    // MeterBinder, MeterRegistry and Tag appear in the public API; micrometer-core is an automatic module.
    requires transitive micrometer.core;

    exports org.bbflow.micrometer;
}
