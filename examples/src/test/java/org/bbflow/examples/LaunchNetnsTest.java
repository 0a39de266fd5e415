package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher across three network namespaces as three hosts (src/test/netns/launch-netns.sh): the
 * groups listen on their namespaces' addresses, beyond loopback, with the job's shared secret. Where
 * namespaces cannot be made (not root, no iproute2, no bridge module), the test says why and is
 * skipped; {@link LaunchCommandTest} runs the same job with local processes everywhere.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LaunchNetnsTest {
    private static String skipped;
    private static Path ip;

    private static int run(List<String> cmd, StringBuilder out) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        if (!p.waitFor(200, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    @BeforeAll
    static void probe() throws Exception {
        if (!System.getProperty("os.name").toLowerCase().contains("linux")) {
            skipped = "network namespaces need Linux";
            return;
        }
        ip = List.of(Path.of("/usr/sbin/ip"), Path.of("/sbin/ip"), Path.of("/usr/bin/ip"), Path.of("/bin/ip")).stream()
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (ip == null) {
            skipped = "iproute2 ('ip') is not installed (apt-get install -y iproute2)";
            return;
        }
        String ns = "blprobe" + ProcessHandle.current().pid() % 100000;
        StringBuilder why = new StringBuilder();
        if (run(List.of(ip.toString(), "netns", "add", ns), why) != 0) {
            skipped = "cannot create network namespaces (needs root / CAP_SYS_ADMIN): " + why.toString().trim();
            return;
        }
        try {
            if (run(List.of(ip.toString(), "-n", ns, "link", "add", "br0", "type", "bridge"), why) != 0
                    || run(List.of(ip.toString(), "-n", ns, "link", "add", "blpa", "type", "veth", "peer", "name", "blpb"), why) != 0) {
                skipped = "cannot create a bridge or a veth pair (kernel modules?): " + why.toString().trim();
            }
        } finally {
            run(List.of(ip.toString(), "netns", "del", ns), new StringBuilder());
        }
    }

    private static String launch(long n, String failing, int[] status) throws Exception {
        assumeTrue(skipped == null, () -> "skipped: " + skipped);
        Path script = Path.of("src/test/netns/launch-netns.sh").toAbsolutePath();
        assumeTrue(Files.isRegularFile(script), "skipped: script not found at " + script);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder out = new StringBuilder();
        List<String> cmd = failing == null
                ? List.of("env", "JAVA=" + java, "bash", script.toString(), System.getProperty("java.class.path"), String.valueOf(n))
                : List.of("env", "JAVA=" + java, "bash", script.toString(), System.getProperty("java.class.path"), String.valueOf(n),
                        failing);
        status[0] = run(cmd, out);
        System.out.println(out);
        return out.toString();
    }

    @Test
    void aFarmSpreadOverThreeHostsGivesExactResults() throws Exception {
        int[] status = new int[1];
        String out = launch(200_000, null, status);
        assertEquals(0, status[0], out);
        assertTrue(out.contains("[m]  squares: 200,000 results") && out.contains("matches n(n+1)(2n+1)/6"), out);
        assertTrue(out.contains("[w1] group w1: done"), out);
        assertTrue(out.contains("[w2] group w2: done"), out);
        assertTrue(out.contains("launch-netns: launcher exited with 0"), out);
    }

    /** kill -9 of a worker host's processes in the middle of the run: the job completes with exact results. */
    @Test
    void killingOneWorkerHostMidRunStillGivesExactResults() throws Exception {
        int[] status = new int[1];
        String out = launch(200_000, "kill:w1", status);
        assertEquals(0, status[0], out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("launch-netns: kill -9 of group w1 (pids: ")
                && !l.contains("pids: none")), out);
        assertTrue(out.contains("launch: group w1 exited with 137"), out);
        assertTrue(out.contains("[m]  squares: lost groups [w1]"), out);
        assertTrue(out.contains("[m]  squares: 200,000 results") && out.contains("matches n(n+1)(2n+1)/6"), out);
        assertTrue(out.contains("launch: group w2 exited with 0"), out);
        assertTrue(out.contains("launch-netns: launcher exited with 0"), out);
    }

    @Test
    void aFailingNodeOnOneHostFailsTheJobEverywhereWithTheCause() throws Exception {
        int[] status = new int[1];
        String out = launch(200_000, "w2", status);
        assertEquals(1, status[0], out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("[m]") && l.contains("group 'w2' failed")
                && l.contains("failed on purpose")), out);
        assertTrue(out.contains("launch: group m exited with 1"), out);
        assertTrue(out.contains("launch: group w2 exited with 1"), out);
        assertTrue(out.contains("launch: group w1 exited with 1"), out); // told by the master's verdict
    }
}
