package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agrona 2 needs {@code jdk.internal.misc} opened; a JVM without the option gets a clear error from
 * the channel's constructors (naming the option), not an {@link IllegalAccessError} from inside
 * Agrona. Runs a child JVM without the option (this one, like every test JVM, has it).
 */
class IpcUnsafeAccessTest {

    /** The child: tries to create and to open a channel file and prints what each threw. */
    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        try {
            IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults()).close();
            System.out.println("create: no error");
        } catch (RuntimeException | Error e) {
            System.out.println("create: " + e);
        }
        try {
            IpcSender.open(file, IpcCodec.int64()).close();
            System.out.println("open: no error");
        } catch (RuntimeException | Error e) {
            System.out.println("open: " + e);
        }
    }

    @Test
    @Timeout(60)
    void withoutTheJvmOptionBothEndsSayWhichOptionIsMissing(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                IpcUnsafeAccessTest.class.getName(), dir.resolve("channel").toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(50, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        String expected = "java.lang.IllegalStateException: inter-process channels need the JVM option"
                + " --add-opens java.base/jdk.internal.misc=ALL-UNNAMED";
        assertTrue(out.contains("create: " + expected), out);
        assertTrue(out.contains("open: " + expected), out);
    }
}
