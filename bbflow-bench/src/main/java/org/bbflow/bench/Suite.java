package org.bbflow.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.bbflow.bench.support.CpuTimeProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the BBFlow benchmark suite (packages {@code org.bbflow.bench.channel} and
 * {@code org.bbflow.bench.flow}) with JMH and writes JMH JSON plus an environment file for
 * {@link Report}.
 *
 * <pre>
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.Suite --quick [--out FILE]
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.Suite --full  [--out FILE]
 * </pre>
 *
 * <ul>
 *   <li>{@code --quick}: the smoke test (CI): every benchmark once with its smallest parameters,
 *       1 fork, 1 warm-up and 1 measurement iteration of 100 ms: about 35 s on 2 cores.
 *       Numbers are not meaningful; it proves that every benchmark still runs and checks its
 *       result.</li>
 *   <li>{@code --full}: the measurement run: the forks and iterations of each class's annotations
 *       (2 forks x 5 x 1 s after warm-up for most), all parameters, and N = 100M for the two-stage
 *       pipeline.</li>
 * </ul>
 * Other options: {@code --out FILE} (default {@code bench-results/quick.json} or
 * {@code bench-results/full.json}), {@code --include REGEX} (repeatable; replaces the default
 * selection, e.g. {@code 'org.bbflow.bench.flow.Farm.*'}), {@code --forks N} (at least 3 in full mode), {@code -p name=v1,v2}
 * (repeatable; overrides a parameter). The exit status is non-zero if any benchmark throws (every
 * benchmark checks its own result, so a wrong result counts) or none ran.
 */
public final class Suite {
    /** The benchmarks of this suite (the bkd/net/io packages are run by their owners' commands). */
    public static final String DEFAULT_INCLUDE = "org\\.bbflow\\.bench\\.(channel|flow)\\..*";

    /** The fewest forks a full run accepts: a two-thread loop's spread only shows across forks. */
    static final int MIN_FULL_FORKS = 3;

    private Suite() {
    }

    /** Entry point; see the class comment. */
    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: Suite --quick|--full [--out FILE] [--include REGEX]... [--forks N] [-p name=v1,v2]...");
            System.exit(2);
        }
    }

    static int run(String[] args) {
        Boolean quick = null;
        String out = null;
        Integer forks = null;
        List<String> includes = new ArrayList<>();
        List<String[]> params = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick": quick = true; break;
                case "--full": quick = false; break;
                case "--out": out = value(args, ++i, a); break;
                case "--include": includes.add(value(args, ++i, a)); break;
                case "--forks": forks = Integer.parseInt(value(args, ++i, a)); break;
                case "-p": {
                    String kv = value(args, ++i, a);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("-p needs name=v1,v2, got " + kv);
                    }
                    params.add(new String[] {kv.substring(0, eq), kv.substring(eq + 1)});
                    break;
                }
                default: throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        if (quick == null) {
            throw new IllegalArgumentException("give --quick or --full");
        }
        if (out == null) {
            out = quick ? "bench-results/quick.json" : "bench-results/full.json";
        }
        if (includes.isEmpty()) {
            includes.add(DEFAULT_INCLUDE);
        }
        ChainedOptionsBuilder o = new OptionsBuilder()
                .addProfiler(CpuTimeProfiler.class)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(out);
        includes.forEach(o::include);
        Map<String, String[]> values = new LinkedHashMap<>();
        if (quick) {
            // two iterations (a warm-up and a measurement), so that iteration-level setup and teardown
            // run twice; JMH ends an iteration only after a whole operation, and 100 ms still runs the
            // slowest operation (SlowWorkerBench, ~60 ms on the slower 2-core host) at least twice. 200 ms
            // each: 48 s for the 56 configurations; 100 ms: 35 s (2026-11-27)
            o.forks(1)
                    .warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                    .measurementIterations(1).measurementTime(TimeValue.milliseconds(100))
                    .timeout(TimeValue.minutes(2));
            // smallest parameters
            values.put("n", new String[] {"1000"});
            values.put("workers", new String[] {"2"});
            values.put("stages", new String[] {"4"});
            values.put("items", new String[] {"32"});
            values.put("work", new String[] {"2000"});
            values.put("windowMillis", new String[] {"50"});
        } else {
            o.timeout(TimeValue.minutes(15));
            values.put("n", new String[] {"1000", "10000", "100000", "1000000", "10000000", "100000000"});
        }
        if (forks != null && !quick && forks < MIN_FULL_FORKS) {
            // one or two forks hide the bimodal spread of two-thread loops (speed issue): never fewer than the annotations' 3
            throw new IllegalArgumentException("--full needs --forks >= " + MIN_FULL_FORKS + ", got " + forks);
        }
        if (forks != null) {
            o.forks(forks);
        }
        for (String[] p : params) {
            values.put(p[0], p[1].split(",")); // replaces the mode's values (JMH's param() would add to them)
        }
        values.forEach(o::param);
        Path outPath = Paths.get(out).toAbsolutePath();
        try {
            Files.createDirectories(outPath.getParent());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create " + outPath.getParent() + ": " + e);
        }
        Properties env = environment(quick);
        long t0 = System.nanoTime();
        Collection<RunResult> results;
        try {
            results = new Runner(o.build()).run();
        } catch (RunnerException e) {
            System.err.println("FAILED: a benchmark threw: " + e.getMessage());
            e.printStackTrace();
            return 1;
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        env.setProperty("suite.seconds", Long.toString(seconds));
        env.setProperty("load.end", load());
        writeEnv(outPath, env);
        if (results.isEmpty()) {
            System.err.println("FAILED: no benchmark matched " + includes);
            return 1;
        }
        System.out.printf(Locale.ROOT, "%d benchmark configurations in %d s; results: %s%n", results.size(), seconds, outPath);
        String name = outPath.getFileName().toString().replaceFirst("\\.json$", "");
        System.out.println("report: java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.Report " + out
                + " " + outPath.resolveSibling(name));
        return 0;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** The machine, JDK and date, written next to the results ({@code FILE.env.properties}). */
    static Properties environment(boolean quick) {
        Properties p = new Properties();
        p.setProperty("mode", quick ? "quick" : "full");
        p.setProperty("date", Instant.now().toString());
        p.setProperty("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        p.setProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        p.setProperty("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        p.setProperty("cpu", cpuModel());
        p.setProperty("memory.gb", String.format(Locale.ROOT, "%.1f", ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize() / 1e9));
        p.setProperty("load.start", load());
        return p;
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: unknown
        }
        return "unknown";
    }

    private static void writeEnv(Path results, Properties env) {
        Path f = results.resolveSibling(results.getFileName() + ".env.properties");
        try (OutputStream os = Files.newOutputStream(f)) {
            env.store(os, "environment of " + results.getFileName());
        } catch (IOException e) {
            System.err.println("warning: cannot write " + f + ": " + e);
        }
    }
}
