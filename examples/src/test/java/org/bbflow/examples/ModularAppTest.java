package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A modular application ({@code module app { requires org.bbflow.core; ... }}) compiled against the
 * library jars and their dependencies on the module path, then run with {@code java --module-path}:
 * it must find JCTools, Agrona and Netty without any {@code --add-modules}. Needs the jars, which
 * carry their module descriptors from the {@code package} phase on, so it runs in
 * {@code ./mvnw verify} (and is skipped, saying why, when the modules are only compiled classes).
 */
class ModularAppTest {

    /** One class from each jar the app needs on the module path. */
    private static final List<String> ANCHORS = List.of(
            "org.bbflow.core.Pipeline", "org.bbflow.net.NetServer", "org.bbflow.bkd.BkdTree",
            "org.jctools.queues.SpscArrayQueue", "org.agrona.concurrent.IdleStrategy",
            "io.netty.buffer.ByteBuf", "io.netty.util.AttributeKey", "io.netty.channel.Channel",
            "io.netty.handler.ssl.SslHandler", "io.netty.handler.codec.ByteToMessageDecoder",
            "io.netty.resolver.AddressResolver", "io.netty.channel.unix.Socket",
            "org.bbflow.micrometer.FlowMetrics", "io.micrometer.core.instrument.MeterRegistry",
            "io.micrometer.common.KeyValue", "io.micrometer.observation.Observation",
            "org.jspecify.annotations.Nullable");

    private static final String MODULE_INFO = String.join("\n",
            "module app {",
            "    requires org.bbflow.core;",
            "    requires org.bbflow.net;",
            "    requires org.bbflow.bkd;",
            "    requires org.bbflow.micrometer;",
            "}");

    private static final String MAIN = String.join("\n",
            "package app;",
            "import org.bbflow.core.*;",
            "import org.bbflow.net.*;",
            "import org.bbflow.bkd.*;",
            "import org.bbflow.micrometer.FlowMetrics;",
            "import io.micrometer.core.instrument.simple.SimpleMeterRegistry;",
            "public class Main {",
            "    public static void main(String[] args) throws Exception {",
            "        long[] sum = {0};",
            "        Pipeline.of(Nodes.range(1, 100), Farm.of(2, () -> Nodes.map((Long x) -> 2 * x)),",
            "                Nodes.sink((Long x) -> sum[0] += x)).run();",
            "        long points;",
            "        try (BkdTree index = BkdTree.builder(2).build()) {",
            "            index.insert(new double[] {1, 2}, 1L);",
            "            index.refresh();",
            "            points = index.count(Box.all(2));",
            "        }",
            "        long[] remote = {0};",
            "        NetOptions opts = NetOptions.defaults();",
            "        try (NetServer server = NetServer.bind(\"127.0.0.1\", 0, opts)) {",
            "            Flow in = Flow.start(Pipeline.of(RemoteBlocks.inlet(server, 1, Codec.longs()),",
            "                    Nodes.sink((Long x) -> remote[0] += x)));",
            "            Pipeline.of(Nodes.range(1, 10),",
            "                    RemoteBlocks.outlet(\"127.0.0.1\", server.port(), 1, Codec.longs(), opts)).run();",
            "            in.join();",
            "        }",
            "        SimpleMeterRegistry registry = new SimpleMeterRegistry();",
            "        Flow metered = Flow.start(Pipeline.of(Nodes.range(1, 7), Nodes.sink((Long x) -> { })));",
            "        new FlowMetrics(metered).bindTo(registry);",
            "        metered.join();",
            "        long sunk = (long) registry.get(FlowMetrics.ITEMS_IN).tag(\"node\", \"sink\").functionCounter().count();",
            "        System.out.println(\"modules \" + Main.class.getModule().getName() + \" \"",
            "                + Pipeline.class.getModule().getName() + \" \" + NetServer.class.getModule().getName()",
            "                + \" \" + BkdTree.class.getModule().getName() + \" \" + FlowMetrics.class.getModule().getName());",
            "        System.out.println(\"results \" + sum[0] + \" \" + points + \" \" + remote[0] + \" \" + sunk);",
            "    }",
            "}");

    @Test
    @Timeout(120)
    void aModularAppRunsOnTheModulePath(@TempDir Path dir) throws Exception {
        List<Path> modulePath = modulePath();
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
        Files.writeString(src.resolve("app/Main.java"), MAIN);
        Path classes = dir.resolve("classes");

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        String mp = modulePath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        boolean compiled = javac.getTask(diagnostics, null, null,
                List.of("--module-path", mp, "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(
                        src.resolve("module-info.java"), src.resolve("app/Main.java"))).call();
        assertTrue(compiled, "the modular app does not compile:\n" + diagnostics);

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("out.txt");
        Process p = new ProcessBuilder(java.toString(),
                "--module-path", mp + File.pathSeparator + classes, "-m", "app/app.Main")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                fail("the modular app did not finish in 90 s:\n" + Files.readString(log));
            }
        } finally {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), "the modular app failed:\n" + out);
        assertTrue(out.contains("modules app org.bbflow.core org.bbflow.net org.bbflow.bkd org.bbflow.micrometer"), out);
        assertTrue(out.contains("results 10100 1 55 7"), out);
    }

    /** Every package but {@code ...internal...} ones is exported, so no public type is out of reach. */
    @Test
    void everyPackageOfALibraryJarIsExported() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path jar : libraryJars()) {
            Set<ModuleReference> refs = ModuleFinder.of(jar).findAll();
            ModuleDescriptor d = refs.iterator().next().descriptor();
            if (d.isAutomatic()) {
                problems.add(jar.getFileName() + " has no module descriptor");
                continue;
            }
            Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toSet());
            Set<String> missing = new TreeSet<>(d.packages());
            missing.removeAll(exported);
            missing.removeIf(p -> p.contains(".internal"));   // not API: deliberately not exported
            if (!missing.isEmpty()) {
                problems.add(d.name() + " does not export " + missing
                        + " (add it to src/main/module/module-info.java)");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static List<Path> libraryJars() {
        List<Path> jars = new ArrayList<>();
        for (Path p : modulePath()) {
            if (p.getFileName().toString().startsWith("bbflow-")) {
                jars.add(p);
            }
        }
        assertEquals(4, jars.size(), "expected the four library jars: " + jars);
        return jars;
    }

    private static List<Path> modulePath() {
        Set<Path> entries = new LinkedHashSet<>();
        for (String anchor : ANCHORS) {
            Path location;
            try {
                location = Path.of(Class.forName(anchor).getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (ReflectiveOperationException | java.net.URISyntaxException e) {
                throw new AssertionError("cannot locate the jar of " + anchor, e);
            }
            Assumptions.assumeTrue(Files.isRegularFile(location),
                    "skipped: " + anchor + " comes from " + location + ", not a jar; the module descriptors are"
                            + " added to the jars by `package` (run ./mvnw verify)");
            entries.add(location);
        }
        return new ArrayList<>(entries);
    }
}
