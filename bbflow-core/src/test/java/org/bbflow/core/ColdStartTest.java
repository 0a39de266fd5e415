package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a flow costs a fresh process: a flow outside a JDK Flight Recorder recording must not set
 * up JFR (initialising the node-end event class did, about 50 ms of every cold start), and a
 * recording started later still gets the node-end events. A first flow's start is mostly class
 * loading, so a default flow must not load Agrona (only a wait strategy's idle strategy needs it),
 * nor a dispatch or collect policy its nodes do not use, nor make the JVM spin a class for a lambda
 * or method reference of the runtime's own. Checked in a child JVM, whose class loading is logged,
 * because the test JVM has loaded everything already.
 */
class ColdStartTest {
    /**
     * The policies a two-stage pipeline does not use: its source sends on one plain edge
     * ({@code DispatchSingle}), its sink has no output ({@code DispatchNone}) and reads one input in
     * runs ({@code CollectRuns}).
     */
    private static final Pattern UNUSED_POLICY = Pattern.compile(
            " org\\.bbflow\\.core\\.(Dispatch(?!Single |None )[A-Z]\\w* |Collect(?!Runs )[A-Z]\\w* |Units |WaitStrategy\\$(?!Backoff)\\w+ )");

    @Test
    @Timeout(120)
    void aFirstFlowLoadsOnlyWhatItUsesAndALaterRecordingStillGetsItsEvents() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx64m", "-Xlog:class+load=info:stdout", "-cp",
                System.getProperty("java.class.path"), ColdStartPeer.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> jfrBeforeTheRecording = new ArrayList<>();
        List<String> avoidable = new ArrayList<>();
        int runtimeClasses = 0;
        List<String> tail = new ArrayList<>();
        boolean firstFlowDone = false;
        long events = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("FIRST-FLOW-DONE")) {
                    assertEquals("FIRST-FLOW-DONE sum=500500", line);
                    firstFlowDone = true;
                } else if (line.startsWith("RECORDED-EVENTS ")) {
                    events = Long.parseLong(line.substring("RECORDED-EVENTS ".length()));
                } else if (!firstFlowDone && line.contains("[class,load]")
                        && (line.contains(" jdk.jfr.internal.") || line.contains(" org.bbflow.core.NodeEndEvent "))) {
                    jfrBeforeTheRecording.add(line);
                }
                if (!firstFlowDone && line.contains("[class,load]")) {
                    // the runtime's classes, not this test's (the peer and its helper live in the same package)
                    boolean runtime = line.contains(" org.bbflow.core.") && !line.contains(" org.bbflow.core.ColdStartPeer")
                            && !line.contains(" org.bbflow.core.Runs");
                    if (runtime) {
                        runtimeClasses++;
                    }
                    if (line.contains(" org.agrona.") || runtime && line.contains("$$Lambda") || UNUSED_POLICY.matcher(line).find()) {
                        avoidable.add(line);
                    }
                }
                if (!line.contains("[class,load]")) {
                    tail.add(line);
                }
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        assertEquals(0, p.exitValue(), "child JVM failed:\n" + String.join("\n", tail));
        assertTrue(firstFlowDone, "the child never finished its first flow:\n" + String.join("\n", tail));
        assertTrue(jfrBeforeTheRecording.isEmpty(), "a flow with no recording running set up JDK Flight Recorder: "
                + jfrBeforeTheRecording.size() + " classes loaded, first "
                + jfrBeforeTheRecording.subList(0, Math.min(3, jfrBeforeTheRecording.size())));
        assertTrue(runtimeClasses > 20, "the class loading log was not read: " + runtimeClasses + " runtime classes");
        assertTrue(avoidable.isEmpty(), "a default first flow loaded Agrona, a policy it does not use or a spun lambda class: "
                + avoidable);
        assertEquals(2, events, "node-end events of the flow run during the recording (2 nodes)");
    }
}
