package org.bbflow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java side of the FastFlow comparison ({@code bbflow-bench/perf-kit/java/PerfJ.java}, compiled by
 * the kit's {@code run.sh}, not by Maven) still compiles against today's API and computes the right
 * results: every configuration the published plans use runs once, small, and PerfJ checks its own sum.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PerfKitTest {
    @TempDir
    Path classes;

    @Test
    void perfJCompilesAndEveryPublishedConfigurationComputesItsResult() throws Exception {
        Path source = Path.of(System.getProperty("basedir", ".")).resolve("perf-kit/java/PerfJ.java");
        assertTrue(Files.isRegularFile(source), "no " + source.toAbsolutePath());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK, not a JRE");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = javac.run(null, diagnostics, diagnostics, "-nowarn", "-d", classes.toString(),
                "-cp", classPath(), source.toString());
        assertEquals(0, status, "PerfJ.java no longer compiles against the API:\n"
                + diagnostics.toString(StandardCharsets.UTF_8));

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass("PerfJ").getMethod("main", String[].class);
            List<String[]> runs = List.of(
                    new String[] {"two", "bbflow-longs-backoff", "100000", "2"},
                    new String[] {"two", "bbflow-backoff", "10000", "1"},
                    new String[] {"two", "bbflow-blocking", "10000", "1"},
                    new String[] {"two", "bbflow-refs-backoff", "10000", "1"},
                    new String[] {"two", "jctools", "10000", "1"},
                    new String[] {"two", "disruptor-busyspin", "10000", "1"},
                    new String[] {"two", "thesis", "10000", "1"},
                    new String[] {"farm", "seq", "36", "2000", "1"},
                    new String[] {"farm", "bbflow-longs-backoff", "36", "2000", "1"},
                    new String[] {"farm", "bbflow-backoff", "36", "2000", "1"},
                    new String[] {"farm", "executor", "36", "2000", "1"},
                    new String[] {"farm", "pstream", "36", "2000", "1"},
                    new String[] {"ping", "bbflow-backoff", "1000", "1"},
                    new String[] {"ping", "bbflow-blocking", "100", "1"});
            PrintStream stdout = System.out;
            for (String[] args : runs) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
                try {
                    main.invoke(null, (Object) args);
                } catch (InvocationTargetException e) {
                    throw new AssertionError("PerfJ " + String.join(" ", args) + " failed", e.getCause());
                } finally {
                    System.setOut(stdout);
                }
                String printed = out.toString(StandardCharsets.UTF_8);
                long lines = printed.lines().filter(l -> l.startsWith("RUN " + args[1] + " " + args[0] + " ")).count();
                assertEquals(Long.parseLong(args[args.length - 1]), lines,
                        "PerfJ " + String.join(" ", args) + " printed:\n" + printed);
            }
        }
    }

    /** The test class path, as Surefire gives it (it may hide it behind a manifest-only jar). */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isEmpty() ? cp : System.getProperty("java.class.path").replace(':', File.pathSeparatorChar);
    }
}
