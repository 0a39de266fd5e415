package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bkd --directory} keeps an index; {@code bkd-check} passes it intact and fails it damaged. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BkdCheckCommandTest {

    private static int run(List<String> out, String... argv) {
        out.clear();
        return Main.run(argv, Output.into(out), Output.into(out));
    }

    @Test
    void anIngestedIndexChecksOkAndADamagedOneFailsNamingTheFile(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("index");
        List<String> out = new ArrayList<>();
        assertEquals(0, run(out, "bkd", "--points", "200000", "--readers", "0", "--checks", "5", "--directory",
                dir.toString(), "--no-progress"), String.join("\n", out));
        assertEquals(0, run(out, "bkd-check", dir.toString()), String.join("\n", out));
        assertTrue(out.get(out.size() - 1).startsWith("OK: commit"), String.join("\n", out));
        assertTrue(out.stream().anyMatch(l -> l.startsWith("ok      tree")), String.join("\n", out));
        Path tree;
        try (Stream<Path> s = Files.list(dir)) {
            tree = s.filter(p -> p.getFileName().toString().startsWith("tree-")).sorted().findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(tree);
        b[b.length / 3] ^= 1;
        Files.write(tree, b);
        assertEquals(1, run(out, "bkd-check", dir.toString()), String.join("\n", out));
        String name = tree.getFileName().toString();
        assertTrue(out.stream().anyMatch(l -> l.startsWith("DAMAGED tree") && l.contains(name)), String.join("\n", out));
        assertTrue(out.get(out.size() - 1).startsWith("DAMAGED: 1 of"), String.join("\n", out));
        assertEquals(2, run(out, "bkd", "--points", "10", "--directory", dir.toString(), "--no-progress"),
                "a non-empty --directory is a usage error");
        assertEquals(1, run(out, "bkd-check", tmp.resolve("nowhere").toString()), String.join("\n", out));
    }

    @Test
    void aDirectoryWithoutAnIndexIsNoIndexNotOk(@TempDir Path tmp) throws Exception {
        List<String> out = new ArrayList<>();
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertEquals(1, run(out, "bkd-check", empty.toString()), String.join("\n", out));
        assertTrue(out.get(out.size() - 1).startsWith("NO INDEX:"), String.join("\n", out));
        assertTrue(String.join("\n", out).contains("no MANIFEST and no index file"), String.join("\n", out));
        Path other = Files.createDirectory(tmp.resolve("other"));
        Files.writeString(other.resolve("notes.txt"), "not an index");
        assertEquals(1, run(out, "bkd-check", other.toString()), String.join("\n", out));
        assertTrue(out.get(out.size() - 1).startsWith("NO INDEX:"), String.join("\n", out));
    }
}
