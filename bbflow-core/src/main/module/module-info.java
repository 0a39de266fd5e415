/**
 * BBFlow's core: nodes, channels, wait strategies, the building blocks and flows, with
 * n-buffered I/O ({@code io}), dependency-aware scheduling ({@code sched}) and inter-process
 * channels ({@code ipc}), and the bridge to {@code java.util.concurrent.Flow} publishers ({@code reactive}).
 *
 * <p>This descriptor is compiled after the tests and added to the jar at package time (see the
 * parent POM's {@code module-descriptor} profile); compilation and tests use the class path.
 * Every package of the jar must be exported: a test in {@code examples} (ModularAppTest) fails
 * when a package is missing here.
 */
module org.bbflow.core {
    // The channels are JCTools queues; it is an explicit module, so it must be required to be resolved.
    requires org.jctools.core;
    // JCTools and Agrona use sun.misc.Unsafe; JCTools declares that need only as "requires static".
    requires jdk.unsupported;
    // Agrona's IdleStrategy and buffers appear in the public API (WaitStrategy, ipc).
    requires transitive org.agrona;
    // Per-node statistics are JDK Flight Recorder events (NodeEndEvent).
    requires jdk.jfr;
    // Busy time is each node thread's CPU time (ThreadMXBean, read at the node's start and end).
    requires java.management;

    exports org.bbflow.core;
    exports org.bbflow.core.io;
    exports org.bbflow.core.ipc;
    exports org.bbflow.core.par;
    exports org.bbflow.core.reactive;
    exports org.bbflow.core.sched;
}
