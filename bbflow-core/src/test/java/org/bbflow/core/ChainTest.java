package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.StringWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.agrona.concurrent.IdleStrategy;
import org.jctools.queues.MessagePassingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.bbflow.testing.TestSeed;

/** Typed chains ({@link Pipeline#from}, {@link Chain}): they run, and type mismatches do not compile. */
@Timeout(120)
class ChainTest {

    @Test
    void typedChainRunsWithInferredLambdas() {
        Runs.Collector<String> out = new Runs.Collector<>();
        Pipeline<Void, Void> p = Pipeline.from(Nodes.range(1, 1_000))
                .then(Nodes.map(x -> x * 2))
                .filter(x -> x % 3 == 0)
                .map(x -> "n" + x)
                .to(out.sink());
        Runs.run(p);
        List<String> expected = new ArrayList<>();
        for (long x = 1; x <= 1_000; x++) {
            if (2 * x % 3 == 0) {
                expected.add("n" + 2 * x);
            }
        }
        assertEquals(expected, out.get());
    }

    @Test
    void typedChainTakesAnyBlockAndNests() {
        long seed = TestSeed.current();
        Random rnd = new Random(seed);
        int workers = 1 + rnd.nextInt(4);
        int n = 1 + rnd.nextInt(5_000);
        Runs.Collector<Integer> out = new Runs.Collector<>();
        Pipeline<Long, Integer> inner = Pipeline.from(Nodes.<Long, Long>map(x -> x + 1))
                .flatMap((Long x, Outbox<Integer> o) -> {
                    o.send((int) (long) x);
                    o.send(-(int) (long) x);
                })
                .named("inner")
                .build();
        Pipeline.from(Nodes.range(1, n))
                .then(Farm.of(workers, () -> Nodes.<Long, Long>map(x -> x * 10)).ordered())
                .then(inner)
                .then(Nodes.identity(), ChannelSpec.bounded(8))
                .to(out.sink())
                .run();
        List<Integer> expected = new ArrayList<>();
        for (long x = 1; x <= n; x++) {
            expected.add((int) (x * 10 + 1));
            expected.add(-(int) (x * 10 + 1));
        }
        assertEquals(expected, out.get(), "seed " + seed + ", workers " + workers + ", n " + n);
    }

    @Test
    void chainIsAViewOfOnePipeline() {
        Chain<Void, Long> c = Pipeline.from(Nodes.range(1, 3));
        Pipeline<Void, Long> p = c.build();
        c.map(x -> x + 1);
        assertEquals(2, p.stages().size());
        assertThrows(IllegalArgumentException.class, () -> Pipeline.from(null));
    }

    // ---- compile-time checks: compile snippets against bbflow-core's classes -------------------

    private static final String OK = String.join("\n",
            "import org.bbflow.core.*;",
            "class Snippet {",
            "  static Pipeline<Void, Void> p() {",
            "    return Pipeline.from(Nodes.range(1, 10))",
            "        .then(Nodes.map(x -> x * 2))",
            "        .map(x -> \"s\" + x)",
            "        .filter(s -> !s.isEmpty())",
            "        .map(String::length)",
            "        .then(Nodes.sink(i -> System.out.println(i + 1))).build();",
            "  }",
            "}");

    @Test
    void wellTypedChainCompiles() throws Exception {
        Compiled c = compile(OK);
        assertTrue(c.success, c.diagnostics);
    }

    @Test
    void stageOfTheWrongInputTypeDoesNotCompile() throws Exception {
        // a stage that takes Strings after a stage that sends Longs
        Compiled c = compile(String.join("\n",
                "import org.bbflow.core.*;",
                "class Snippet {",
                "  static Object p(Node<String, Integer> parse) {",
                "    return Pipeline.from(Nodes.range(1, 10)).then(parse).to(Nodes.sink(i -> { }));",
                "  }",
                "}"));
        assertFalse(c.success, "a Long -> String stage mismatch compiled");
        assertTrue(c.diagnostics.contains("Snippet.java:4"), c.diagnostics);
    }

    @Test
    void lambdaUsingTheWrongTypeDoesNotCompile() throws Exception {
        // x is inferred as Long: calling a String method on it is an error
        Compiled c = compile(String.join("\n",
                "import org.bbflow.core.*;",
                "class Snippet {",
                "  static Object p() {",
                "    return Pipeline.from(Nodes.range(1, 10)).map(x -> x.toUpperCase()).build();",
                "  }",
                "}"));
        assertFalse(c.success, "x.toUpperCase() on a Long compiled");
        assertTrue(c.diagnostics.contains("toUpperCase"), c.diagnostics);
    }

    @Test
    void sinkOfTheWrongTypeDoesNotCompile() throws Exception {
        Compiled c = compile(String.join("\n",
                "import org.bbflow.core.*;",
                "class Snippet {",
                "  static Object p(Node<Integer, Void> sink) {",
                "    return Pipeline.from(Nodes.range(1, 10)).map(x -> \"s\" + x).to(sink);",
                "  }",
                "}"));
        assertFalse(c.success, "a String chain ending in an Integer sink compiled");
    }

    private static final class Compiled {
        final boolean success;
        final String diagnostics;

        Compiled(boolean success, String diagnostics) {
            this.success = success;
            this.diagnostics = diagnostics;
        }
    }

    private static Compiled compile(String source) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK (javax.tools.JavaCompiler)");
        Path outDir = Files.createTempDirectory("bbflow-chain-test");
        try {
            String classPath = String.join(File.pathSeparator, location(Pipeline.class), location(IdleStrategy.class),
                    location(MessagePassingQueue.class));
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            StringWriter log = new StringWriter();
            try (StandardJavaFileManager files = javac.getStandardFileManager(diags, Locale.ROOT, null)) {
                JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///Snippet.java"),
                        JavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
                boolean ok = javac.getTask(log, files, diags,
                        List.of("-classpath", classPath, "-d", outDir.toString(), "-proc:none", "--release", "17"),
                        null, List.of(unit)).call();
                StringBuilder b = new StringBuilder(log.toString());
                for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                    b.append(d.getKind()).append(" Snippet.java:").append(d.getLineNumber()).append(": ")
                            .append(d.getMessage(Locale.ROOT)).append('\n');
                }
                return new Compiled(ok, b.toString());
            }
        } finally {
            try (Stream<Path> walk = Files.walk(outDir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
