package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two hosts: runs src/test/netns/netns-test.sh (two network namespaces and a veth pair) when the machine allows it. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NetnsTest {

    private static int run(List<String> cmd, StringBuilder out) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        out.append(new String(p.getInputStream().readAllBytes()));
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    @Test
    void pipelineAcrossTwoNetworkNamespaces() throws Exception {
        assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"), "skipped: network namespaces need Linux");
        Path ip = List.of(Path.of("/usr/sbin/ip"), Path.of("/sbin/ip"), Path.of("/usr/bin/ip"), Path.of("/bin/ip")).stream()
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(ip != null, "skipped: iproute2 ('ip') is not installed (apt-get install -y iproute2)");
        String probe = "bbprobe" + ProcessHandle.current().pid();
        StringBuilder why = new StringBuilder();
        boolean canCreate = run(List.of(ip.toString(), "netns", "add", probe), why) == 0;
        boolean canVeth = false;
        if (canCreate) {
            canVeth = run(List.of(ip.toString(), "-n", probe, "link", "add", probe.substring(0, Math.min(13, probe.length())) + "a",
                    "type", "veth", "peer", "name", "bbprobeb"), why) == 0;
            run(List.of(ip.toString(), "netns", "del", probe), new StringBuilder());
        }
        assumeTrue(canCreate, () -> "skipped: cannot create network namespaces (needs root / CAP_SYS_ADMIN): " + why.toString().trim());
        assumeTrue(canVeth, () -> "skipped: cannot create a veth pair (veth kernel module?): " + why.toString().trim());

        Path script = Path.of("src/test/netns/netns-test.sh").toAbsolutePath();
        assumeTrue(Files.isRegularFile(script), "skipped: script not found at " + script);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder out = new StringBuilder();
        int status = run(List.of("env", "JAVA=" + java, "bash", script.toString(), System.getProperty("java.class.path"),
                "1000000"), out);
        System.out.println(out);
        assertEquals(0, status, "netns-test.sh failed:\n" + out);
    }
}
