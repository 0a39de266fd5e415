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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bad {@code -Dbbflow.batchPool} (issue 28, finding 8) stops every start of a flow that recycles
 * batches with an error naming the property, the first and every later one (not an
 * {@code ExceptionInInitializerError} with a null message, then {@code NoClassDefFoundError}s); a
 * flow that recycles nothing is not concerned. In a child JVM, where the property is set before
 * anything reads it.
 */
class BatchPoolPropertyTest {

    /** The child: starts a recycling flow twice and a plain one once, printing what each did. */
    static final class Peer {
        public static void main(String[] args) {
            for (int i = 0; i < 2; i++) {
                try {
                    Pipeline.of(LongNodes.range(1, 10), LongNodes.map(x -> x), LongNodes.sink(x -> { })).run();
                    System.out.println("RAN");
                } catch (Throwable t) {
                    System.out.println("REFUSED " + t.getClass().getSimpleName() + ": " + t.getMessage());
                }
            }
            try {
                Pipeline.of(Nodes.range(1, 10), Nodes.sink(x -> { })).run();
                System.out.println("PLAIN RAN");
            } catch (Throwable t) {
                System.out.println("PLAIN REFUSED " + t.getClass().getSimpleName() + ": " + t.getMessage());
            }
        }
    }

    @Test
    @Timeout(120)
    void aBadPropertyRefusesEveryRecyclingStartWithItsName() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx64m", "-Dbbflow.batchPool=lots", "-cp", System.getProperty("java.class.path"),
                Peer.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                lines.add(line);
            }
        } finally {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        assertEquals(0, p.exitValue(), String.join("\n", lines));
        List<String> refusals = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("REFUSED") || l.equals("RAN")) {
                refusals.add(l);
            }
        }
        assertEquals(2, refusals.size(), String.join("\n", lines));
        for (String l : refusals) {
            assertTrue(l.startsWith("REFUSED IllegalArgumentException") && l.contains("bbflow.batchPool")
                    && l.contains("'lots'"), l);
        }
        assertTrue(lines.contains("PLAIN RAN"), String.join("\n", lines));
    }
}
