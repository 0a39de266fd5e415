package org.bbflow.core;

import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * The child JVM of {@link ColdStartTest}: runs a flow with no recording, prints a marker line, then
 * starts a recording, runs a second flow and prints how many node-end events it recorded.
 */
final class ColdStartPeer {
    private ColdStartPeer() {
    }

    public static void main(String[] args) throws Exception {
        long[] sum = new long[1];
        Runs.run(Pipeline.of(Nodes.range(1, 1000), Nodes.sink((Long x) -> sum[0] += x)).named("first"));
        System.out.println("FIRST-FLOW-DONE sum=" + sum[0]);
        System.out.flush();
        Path file = Files.createTempFile("bbflow-cold", ".jfr");
        try (Recording r = new Recording()) {
            r.enable(NodeEndEvent.NAME);
            r.start();
            Runs.run(Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })).named("recorded"));
            r.stop();
            r.dump(file);
            long events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(NodeEndEvent.NAME))
                    .filter(e -> "recorded".equals(e.getString("flow")))
                    .count();
            System.out.println("RECORDED-EVENTS " + events);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
