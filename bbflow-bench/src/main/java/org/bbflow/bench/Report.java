package org.bbflow.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.bbflow.bench.report.Charts;
import org.bbflow.bench.report.Result;

/**
 * Turns a JMH JSON result file of {@link Suite} into {@code results.md} (headline targets, one
 * table per benchmark, machine/JDK/date) and PNG charts (XChart), all ratios computed from the same
 * run:
 *
 * <pre>
 * java -cp bbflow-bench/target/benchmarks.jar org.bbflow.bench.Report results.json out-dir
 * </pre>
 *
 * The environment is read from {@code results.json.env.properties} written by {@link Suite} (if
 * missing, the current machine is described and marked so). Uncertainties are JMH's 99.9 %
 * confidence half-widths, propagated to ratios as relative errors in quadrature; "n/a" when a
 * single iteration gives none (quick mode).
 */
public final class Report {
    private static final String CPU = "cpu.cores";
    private final List<Result> results;
    private final Properties env;
    private final Path out;
    private final StringBuilder md = new StringBuilder();
    private final List<String[]> headline = new ArrayList<>();
    private final List<String> charts = new ArrayList<>();
    private final Charts draw;
    private final int cores;

    private Report(List<Result> results, Properties env, Path out) {
        this.results = results;
        this.env = env;
        this.out = out;
        int c;
        try {
            c = Integer.parseInt(env.getProperty("cores", ""));
        } catch (NumberFormatException e) {
            c = Runtime.getRuntime().availableProcessors();
        }
        this.cores = c;
        this.draw = new Charts(caption(env));
    }

    /** The caption under every chart (two lines): machine; JDK, date and mode of the run. */
    static String caption(Properties env) {
        return "Machine: " + env.getProperty("cores", "?") + " cores, " + env.getProperty("cpu", "?") + ", "
                + env.getProperty("memory.gb", "?") + " GB, " + env.getProperty("os", "?") + "\nJDK: "
                + env.getProperty("jdk", "?") + "   Date: " + env.getProperty("date", "?").replaceFirst("\\..*", "")
                + "   Mode: " + env.getProperty("mode", "?") + "   Error bars: 99.9 % CI";
    }

    /**
     * Entry point: {@code Report results.json out-dir}.
     *
     * @param args the JMH JSON result file and the output directory
     * @throws IOException if a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java -cp benchmarks.jar org.bbflow.bench.Report results.json out-dir");
            System.exit(2);
        }
        List<String> charts = write(Paths.get(args[0]), Paths.get(args[1]));
        System.out.println("wrote " + Paths.get(args[1]).resolve("results.md") + " and " + charts.size() + " charts");
    }

    /**
     * Writes {@code results.md} and the PNG charts of a JMH JSON result file into {@code out}. The
     * environment comes from {@code <json>.env.properties} beside the file (written by {@link Suite});
     * without it the current machine is described and marked so.
     *
     * @param json the JMH result file ({@code -rf json})
     * @param out the output directory, created if missing
     * @return the chart files written, relative to {@code out}
     * @throws IOException if a file cannot be read or written
     */
    public static List<String> write(Path json, Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(out);
        List<Result> results = Result.parseAll(Files.readString(json, StandardCharsets.UTF_8));
        Properties env = new Properties();
        Path envFile = json.resolveSibling(json.getFileName() + ".env.properties");
        if (Files.exists(envFile)) {
            try (Reader r = Files.newBufferedReader(envFile, StandardCharsets.UTF_8)) {
                env.load(r);
            }
        } else {
            env = Suite.environment(false);
            env.setProperty("mode", "unknown (no " + envFile.getFileName() + "; machine described at report time)");
        }
        Report r = new Report(results, env, out);
        r.build(json);
        Files.writeString(out.resolve("results.md"), r.md.toString(), StandardCharsets.UTF_8);
        return List.copyOf(r.charts);
    }

    // ---- document --------------------------------------------------------------------------------

    private void build(Path json) throws IOException {
        StringBuilder body = new StringBuilder();
        StringBuilder saved = new StringBuilder();
        // sections append to md; headline rows are collected on the way and printed first
        channelThroughput();
        channelOverhead();
        pingPong();
        idleCost();
        twoStage();
        farm();
        pipeline();
        oversubscription();
        others();
        body.append(md);
        md.setLength(0);
        md.append("# BBFlow benchmark results\n\n");
        md.append("- Source: `").append(json.getFileName()).append("` (JMH ")
                .append(results.isEmpty() ? "?" : results.get(0).jmhVersion).append("), mode: ").append(env.getProperty("mode", "?"))
                .append(", suite time ").append(env.getProperty("suite.seconds", "?")).append(" s\n");
        md.append("- Date: ").append(env.getProperty("date", "?")).append("\n");
        md.append("- Machine: ").append(env.getProperty("cores", "?")).append(" cores, ")
                .append(env.getProperty("cpu", "?")).append(", ").append(env.getProperty("memory.gb", "?"))
                .append(" GB, ").append(env.getProperty("os", "?")).append("\n");
        md.append("- JDK: ").append(env.getProperty("jdk", "?")).append("\n");
        md.append("- Load average (1 min) at start / end: ").append(env.getProperty("load.start", "?")).append(" / ")
                .append(env.getProperty("load.end", "?"))
                .append(" (anything near or above the core count means the numbers are disturbed)\n");
        md.append("- Uncertainty: JMH 99.9 % confidence half-width; ratios propagate relative errors in quadrature;"
                + " n/a = single iteration.\n\n");
        if ("quick".equals(env.getProperty("mode"))) {
            md.append("> **Quick (smoke) mode**: smallest parameters, one 200 ms iteration. These numbers only show that"
                    + " every benchmark runs; they are not measurements.\n\n");
        }
        md.append("## Headline (targets)\n\n| Measure | Measured | Target | Status |\n|---|---|---|---|\n");
        for (String[] h : headline) {
            md.append("| ").append(String.join(" | ", h)).append(" |\n");
        }
        md.append('\n');
        saved.append(body);
        md.append(saved);
        if (!charts.isEmpty()) {
            md.append("## Charts\n\n");
            for (String c : charts) {
                md.append("![").append(c).append("](").append(c).append(")\n\n");
            }
        }
    }

    private void section(String title, String text) {
        md.append("## ").append(title).append("\n\n");
        if (text != null && !text.isEmpty()) {
            md.append(text).append("\n\n");
        }
    }

    private void table(List<String> head, List<List<String>> rows) {
        md.append("| ").append(String.join(" | ", head)).append(" |\n|");
        head.forEach(h -> md.append("---|"));
        md.append('\n');
        for (List<String> r : rows) {
            md.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        md.append('\n');
    }

    private void headline(String what, Ratio measured, String target, boolean higherIsBetter, double threshold,
                          String note) {
        String status;
        if ("quick".equals(env.getProperty("mode"))) {
            status = "not evaluated (quick mode)";
        } else if (measured == null || Double.isNaN(measured.v)) {
            status = "not measured";
        } else {
            boolean met = higherIsBetter ? measured.v >= threshold : measured.v <= threshold;
            status = met ? "met" : "missed";
            if (!Double.isNaN(measured.e)) {
                double lo = measured.v - measured.e;
                double hi = measured.v + measured.e;
                if (threshold >= lo && threshold <= hi) {
                    status += " (within the error)";
                }
            }
        }
        headline.add(new String[] {what, measured == null ? "-" : measured.toString() + (note == null ? "" : " " + note),
            target, status});
    }

    // ---- sections --------------------------------------------------------------------------------

    private void channelThroughput() throws IOException {
        List<Result> rs = select("ChannelThroughputBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Channel throughput (two threads)",
                "Items per microsecond (= millions per second) from a producer to a consumer thread through one channel"
                + " of capacity 1024, end to end (`ChannelThroughputBench`). BBFlow's channel is driven with put/take under"
                + " each wait strategy; raw JCTools spins on offer/poll. CPU = cores the JVM kept busy.");
        Result base = one(rs, r -> "jctools".equals(r.p("impl")));
        List<List<String>> rows = new ArrayList<>();
        List<String> cats = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        List<Double> errs = new ArrayList<>();
        for (Result r : rs) {
            Ratio ratio = base == null ? null : Ratio.of(r, base);
            rows.add(List.of(r.p("impl"), pm(r.score, r.error), ratio == null ? "-" : ratio.toString(), cpu(r)));
            cats.add(r.p("impl"));
            vals.add(r.score);
            errs.add(r.error);
        }
        table(List.of("channel", "Mitems/s", "/ raw JCTools", "CPU cores"), rows);
        chart("channel-throughput.png", () -> draw.bars(out.resolve("channel-throughput.png"),
                "Channel throughput, 2 threads", "million items/s", cats, Map.of("throughput", vals),
                Map.of("throughput", errs)));
        Result spin = one(rs, r -> "bbflow-busyspin".equals(r.p("impl")));
        headline("BBFlow SPSC (busy-spin put/take) / raw JCTools SpscArrayQueue, throughput",
                spin == null || base == null ? null : Ratio.of(spin, base), ">= 0.90", true, 0.90, null);
        Result backoff = one(rs, r -> "bbflow-backoff".equals(r.p("impl")));
        headline("BBFlow SPSC (default backoff put/take) / raw JCTools SpscArrayQueue, throughput",
                backoff == null || base == null ? null : Ratio.of(backoff, base), "(>= 0.90)", true, 0.90, null);
    }

    private void channelOverhead() {
        List<Result> rs = select("ChannelOverheadBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Channel layer overhead (diagnostic, one thread)",
                "One thread offers 32 items and polls them back (`ChannelOverheadBench`): ns per item (offer + poll)"
                + " without any cross-core traffic, so it isolates the instructions BBFlow's `Channel` adds to JCTools."
                + " `jctools-mpq` = JCTools through the `MessagePassingQueue` interface's relaxed calls (as `Channel`"
                + " calls it); `jctools-mpq-checks` = that plus Channel's per-item checks (closed flag, fence flag,"
                + " volatile read of the peer's parked-thread slot).");
        Result base = one(rs, r -> "jctools".equals(r.p("impl")));
        List<List<String>> rows = new ArrayList<>();
        for (Result r : rs) {
            rows.add(List.of(r.p("impl"), pm(r.score, r.error), base == null ? "-" : f(r.score - base.score),
                    base == null ? "-" : str(Ratio.of(r, base))));
        }
        table(List.of("impl", "ns per item", "minus JCTools (ns)", "/ JCTools"), rows);
    }

    private void pingPong() throws IOException {
        List<Result> rs = select("PingPongBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Ping-pong round trip latency",
                "One token sent to an echo thread and back over two channels (`PingPongBench`, JMH SampleTime), microseconds.");
        List<List<String>> rows = new ArrayList<>();
        List<String> cats = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("p50", new ArrayList<>());
        series.put("p99", new ArrayList<>());
        series.put("p99.9", new ArrayList<>());
        for (Result r : rs) {
            double p50 = r.percentiles.getOrDefault(50.0, Double.NaN);
            double p99 = r.percentiles.getOrDefault(99.0, Double.NaN);
            double p999 = r.percentiles.getOrDefault(99.9, Double.NaN);
            rows.add(List.of(r.p("impl"), f(p50), f(p99), f(p999), pm(r.score, r.error), cpu(r)));
            cats.add(r.p("impl"));
            series.get("p50").add(p50);
            series.get("p99").add(p99);
            series.get("p99.9").add(p999);
        }
        table(List.of("channel", "p50 us", "p99 us", "p99.9 us", "mean us", "CPU cores"), rows);
        chart("pingpong-latency.png", () -> draw.logPoints(out.resolve("pingpong-latency.png"),
                "Ping-pong round trip percentiles (log scale)", "microseconds", cats, series));
    }

    private void idleCost() throws IOException {
        List<Result> rs = select("IdleCostBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Idle cost",
                "CPU burnt while a flow's nodes wait with nothing to do (`IdleCostBench`): a source parked on a latch and"
                + " `waiters` nodes waiting on empty channels for `windowMillis`, then one item. Cores = process CPU"
                + " time / wall time over the iterations (JMH internal profiler `CpuTimeProfiler`, includes the JVM's"
                + " own background threads; 10 ms clock-tick resolution). `thesis` = threads waiting in the"
                + " thesis-style channel's take().");
        List<List<String>> rows = new ArrayList<>();
        List<String> cats = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        List<Double> errs = new ArrayList<>();
        for (Result r : rs) {
            double[] c = r.secondary(CPU);
            rows.add(List.of(r.p("strategy"), r.p("waiters"), c == null ? "-" : pm(c[0], c[1]),
                    c == null ? "-" : f(c[0] * 1000) + " ms/s"));
            cats.add(r.p("strategy"));
            vals.add(c == null ? Double.NaN : c[0]);
            errs.add(c == null ? Double.NaN : c[1]);
        }
        table(List.of("wait strategy", "waiting nodes", "cores busy", "CPU per wall second"), rows);
        chart("idle-cost.png", () -> draw.bars(out.resolve("idle-cost.png"), "Idle cost: cores burnt by waiting nodes",
                "cores", cats, Map.of("cores", vals), Map.of("cores", errs)));
    }

    private void twoStage() throws IOException {
        List<Result> rs = select("TwoStageBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Two-stage pipeline (thesis Table 1)",
                "Generator sends Long 1..N, consumer multiplies by 2 (`TwoStageBench`); time per whole run in ms, two"
                + " new threads per run, channels of capacity 1024. thesis = the thesis-style non-blocking channel,"
                + " thesis-blocking = its LinkedBlockingQueue channel.");
        TreeSet<Long> ns = new TreeSet<>();
        List<String> impls = new ArrayList<>();
        for (Result r : rs) {
            ns.add(Long.parseLong(r.p("n")));
            if (!impls.contains(r.p("impl"))) {
                impls.add(r.p("impl"));
            }
        }
        List<String> head = new ArrayList<>(List.of("impl \\ N"));
        ns.forEach(n -> head.add(human(n)));
        List<List<String>> rows = new ArrayList<>();
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (String impl : impls) {
            List<String> row = new ArrayList<>(List.of(impl));
            List<double[]> pts = new ArrayList<>();
            for (long n : ns) {
                Result r = one(rs, x -> impl.equals(x.p("impl")) && Long.toString(n).equals(x.p("n")));
                row.add(r == null ? "-" : pm(r.score, r.error));
                if (r != null) {
                    // ms per run -> ns per item: comparable across N on a linear axis, with error bars
                    pts.add(new double[] {n, r.score * 1e6 / n, r.error * 1e6 / n});
                }
            }
            rows.add(row);
            series.put(impl, xy(pts));
        }
        table(head, rows);
        // ratios per N
        List<List<String>> ratioRows = new ArrayList<>();
        for (long n : ns) {
            Predicate<Result> atN = x -> Long.toString(n).equals(x.p("n"));
            Result jc = one(rs, x -> atN.test(x) && "jctools".equals(x.p("impl")));
            Result bo = one(rs, x -> atN.test(x) && "bbflow-backoff".equals(x.p("impl")));
            Result bs = one(rs, x -> atN.test(x) && "bbflow-busyspin".equals(x.p("impl")));
            Result bl = one(rs, x -> atN.test(x) && "bbflow-blocking".equals(x.p("impl")));
            Result th = one(rs, x -> atN.test(x) && "thesis".equals(x.p("impl")));
            Result tb = one(rs, x -> atN.test(x) && "thesis-blocking".equals(x.p("impl")));
            ratioRows.add(List.of(human(n), str(Ratio.of(bo, jc)), str(Ratio.of(bs, jc)), str(Ratio.of(bl, jc)),
                    str(Ratio.of(th, bo)), str(Ratio.of(tb, bl))));
        }
        md.append("Time ratios (same run):\n\n");
        table(List.of("N", "backoff / JCTools", "busy-spin / JCTools", "blocking / JCTools", "thesis / backoff",
            "thesis-blocking / blocking"), ratioRows);
        chart("two-stage.png", () -> draw.lines(out.resolve("two-stage.png"),
                "Two-stage pipeline: time per item (whole run / N)", "N items", "ns per item", series, true, false));
        long target = ns.contains(10_000_000L) ? 10_000_000L : (ns.isEmpty() ? 0 : ns.last());
        String note = target == 10_000_000L ? null : "(at N = " + human(target) + ", 10M not in this run)";
        Predicate<Result> atT = x -> Long.toString(target).equals(x.p("n"));
        Result jc = one(rs, x -> atT.test(x) && "jctools".equals(x.p("impl")));
        Result bo = one(rs, x -> atT.test(x) && "bbflow-backoff".equals(x.p("impl")));
        Result th = one(rs, x -> atT.test(x) && "thesis".equals(x.p("impl")));
        headline("Two-stage pipeline, N = 10M: BBFlow (default backoff) time / raw two-thread JCTools loop",
                Ratio.of(bo, jc), "<= 1.3", false, 1.3, note);
        headline("Two-stage pipeline, N = 10M: thesis-style channel time / BBFlow (default backoff)",
                Ratio.of(th, bo), ">= 8", true, 8, note);
    }

    private void farm() throws IOException {
        List<Result> rs = select("FarmBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Farm (thesis Code 11)",
                "Emitter generating 1..items, `workers` workers running `y *= 1000; y /= 999` `work` times per item, a"
                + " collector summing (workers + 2 threads, default backoff strategy; `FarmBench`). Speedup = sequential"
                + " loop time (`SequentialBench`, same items and work, same run) / farm time; efficiency = speedup /"
                + " workers. Policy = dispatch-collect.");
        TreeSet<Integer> ws = new TreeSet<>();
        List<String> policies = new ArrayList<>();
        for (Result r : rs) {
            ws.add(Integer.parseInt(r.p("workers")));
            if (!policies.contains(farmLabel(r))) {
                policies.add(farmLabel(r));
            }
        }
        List<List<String>> rows = new ArrayList<>();
        List<Integer> counts = new ArrayList<>(ws);
        Map<String, List<Double>> speedups = new LinkedHashMap<>();
        Map<String, List<Double>> errors = new LinkedHashMap<>();
        for (String policy : policies) {
            List<Double> sv = new ArrayList<>();
            List<Double> se = new ArrayList<>();
            for (int w : ws) {
                Result r = one(rs, x -> policy.equals(farmLabel(x)) && Integer.toString(w).equals(x.p("workers")));
                Ratio s = r == null ? null : Ratio.of(sequentialFor(r), r);
                sv.add(s == null ? Double.NaN : s.v);
                se.add(s == null ? Double.NaN : s.e);
                if (r == null) {
                    continue;
                }
                rows.add(List.of(policy, Integer.toString(w), pm(r.score, r.error), str(s),
                        s == null ? "-" : f(s.v / w), cpu(r)));
            }
            speedups.put(policy, sv);
            errors.put(policy, se);
        }
        Result seq = rs.isEmpty() ? null : sequentialFor(rs.get(0));
        if (seq != null) {
            md.append("Sequential loop: ").append(pm(seq.score, seq.error)).append(" ms (items = ").append(seq.p("items"))
                    .append(", work = ").append(seq.p("work")).append(").\n\n");
        }
        table(List.of("policy", "workers", "ms per run", "speedup", "efficiency", "CPU cores"), rows);
        md.append("CPU cores above the number of workers' share (e.g. 1.2 with one worker) is what the emitter and"
                + " collector burn while they wait.\n\n");
        List<Double> ideal = counts.stream().map(w -> (double) Math.min(w, cores)).toList();
        chart("farm-speedup.png", () -> draw.speedup(out.resolve("farm-speedup.png"), "Farm speedup vs sequential",
                "workers", counts, speedups, errors, ideal, "ideal on " + cores + " cores"));
        Result two = one(rs, x -> "2".equals(x.p("workers")) && "rr-firstcome".equals(farmLabel(x)));
        Ratio s2 = Ratio.of(sequentialFor(two), two);
        String best = null;
        double bestV = -1;
        for (Result r : rs) {
            Ratio s = "2".equals(r.p("workers")) ? Ratio.of(sequentialFor(r), r) : null;
            if (s != null && s.v > bestV) {
                bestV = s.v;
                best = farmLabel(r) + " " + f(s.v);
            }
        }
        headline("Farm, 2 CPU-bound workers + emitter + collector (rr-firstcome): speedup over sequential", s2, ">= 1.8",
                true, 1.8, best == null ? null : "(best policy: " + best + ")");
    }

    /** The farm's policy, plus its wait strategy when it is not the default. */
    private static String farmLabel(Result r) {
        String st = r.p("strategy");
        return st == null || st.equals("backoff") ? r.p("policy") : r.p("policy") + " (" + st + ")";
    }

    private void pipeline() throws IOException {
        List<Result> rs = select("PipelineBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Pipeline of N worker stages (thesis Code 27)",
                "Generator, `stages` workers each doing work/stages steps per item, a final node (`PipelineBench`, default"
                + " backoff). Ideal speedup on this machine = min(stages, cores).");
        rs = new ArrayList<>(rs);
        rs.sort(Comparator.comparingInt(r -> Integer.parseInt(r.p("stages"))));
        List<List<String>> rows = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        List<Double> sv = new ArrayList<>();
        List<Double> se = new ArrayList<>();
        List<Double> ideal = new ArrayList<>();
        for (Result r : rs) {
            int s = Integer.parseInt(r.p("stages"));
            Ratio sp = Ratio.of(sequentialFor(r), r);
            double id = Math.min(s, cores);
            String st = r.p("strategy") == null ? "backoff" : r.p("strategy");
            rows.add(List.of(Integer.toString(s), st, pm(r.score, r.error), str(sp), sp == null ? "-" : pct(sp.v / id),
                    cpu(r)));
            if (sp != null && st.equals("backoff") && !counts.contains(s)) {
                counts.add(s);
                sv.add(sp.v);
                se.add(sp.e);
                ideal.add(id);
            }
        }
        table(List.of("stages", "strategy", "ms per run", "speedup", "of ideal", "CPU cores"), rows);
        chart("pipeline-speedup.png", () -> draw.speedup(out.resolve("pipeline-speedup.png"),
                "Pipeline speedup vs sequential", "worker stages", counts, Map.of("pipeline (backoff)", sv),
                Map.of("pipeline (backoff)", se), ideal, "ideal on " + cores + " cores"));
    }

    private void oversubscription() throws IOException {
        List<Result> rs = select("OversubscriptionBench", r -> true);
        if (rs.isEmpty()) {
            return;
        }
        section("Oversubscription",
                "A " + rs.get(0).p("width") + "-stage pipeline and a " + rs.get(0).p("width") + "-worker farm (each + 2"
                + " threads) of the CPU-bound thesis worker on " + cores + " cores, per wait strategy"
                + " (`OversubscriptionBench`). CPU s per run = cores busy x time per run.");
        List<List<String>> rows = new ArrayList<>();
        List<String> cats = new ArrayList<>();
        Map<String, List<Double>> speed = new LinkedHashMap<>();
        Map<String, List<Double>> speedErr = new LinkedHashMap<>();
        Map<String, List<Double>> cpuS = new LinkedHashMap<>();
        Map<String, List<Double>> cpuErr = new LinkedHashMap<>();
        for (Result r : rs) {
            Ratio sp = Ratio.of(sequentialFor(r), r);
            double ideal = Math.min(Integer.parseInt(r.p("width")), cores);
            double[] c = r.secondary(CPU);
            double cpuSec = c == null ? Double.NaN : c[0] * r.score / 1000;
            double items = Double.parseDouble(r.p("items"));
            rows.add(List.of(r.p("shape"), r.p("strategy"), pm(r.score, r.error), f(items / r.score * 1000), str(sp),
                    sp == null ? "-" : pct(sp.v / ideal), cpu(r), f(cpuSec)));
            String cat = r.p("strategy");
            if (!cats.contains(cat)) {
                cats.add(cat);
            }
            speed.computeIfAbsent(r.p("shape"), k -> new ArrayList<>()).add(sp == null ? Double.NaN : sp.v);
            speedErr.computeIfAbsent(r.p("shape"), k -> new ArrayList<>()).add(sp == null ? Double.NaN : sp.e);
            cpuS.computeIfAbsent(r.p("shape"), k -> new ArrayList<>()).add(cpuSec);
            // CPU s = cores x time: relative errors in quadrature
            cpuErr.computeIfAbsent(r.p("shape"), k -> new ArrayList<>()).add(c == null ? Double.NaN
                    : cpuSec * Math.hypot(c[1] / c[0], r.error / r.score));
        }
        table(List.of("shape", "strategy", "ms per run", "items/s", "speedup", "of ideal", "CPU cores", "CPU s per run"),
                rows);
        chart("oversubscription-speedup.png", () -> draw.bars(out.resolve("oversubscription-speedup.png"),
                "Oversubscribed flows: speedup vs sequential", "speedup", cats, speed, speedErr));
        chart("oversubscription-cpu.png", () -> draw.bars(out.resolve("oversubscription-cpu.png"),
                "Oversubscribed flows: CPU seconds per run", "CPU s", cats, cpuS, cpuErr));
        Result p = one(rs, x -> "pipeline".equals(x.p("shape")) && "backoff".equals(x.p("strategy")));
        Ratio sp = Ratio.of(sequentialFor(p), p);
        Ratio share = sp == null ? null : new Ratio(sp.v / Math.min(Integer.parseInt(p.p("width")), cores),
                sp.e / Math.min(Integer.parseInt(p.p("width")), cores));
        headline("Oversubscribed " + (p == null ? "16" : p.p("width")) + "-stage CPU-bound pipeline, default backoff:"
                + " speedup / ideal (" + cores + " cores)", share, ">= 0.80", true, 0.80,
                sp == null ? null : "(speedup " + sp + ")");
    }

    private void others() {
        List<Result> rest = new ArrayList<>();
        for (Result r : results) {
            if (!List.of("ChannelThroughputBench", "ChannelOverheadBench", "PingPongBench", "IdleCostBench", "TwoStageBench", "FarmBench",
                    "PipelineBench", "OversubscriptionBench", "SequentialBench").contains(r.bench)) {
                rest.add(r);
            }
        }
        if (rest.isEmpty()) {
            return;
        }
        section("Other benchmarks in this file", null);
        List<List<String>> rows = new ArrayList<>();
        for (Result r : rest) {
            rows.add(List.of(r.bench + "." + r.benchmark.substring(r.benchmark.lastIndexOf('.') + 1),
                    r.params.toString(), r.mode, pm(r.score, r.error) + " " + r.unit));
        }
        table(List.of("benchmark", "params", "mode", "score"), rows);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private interface ChartWriter {
        void write() throws IOException;
    }

    private void chart(String file, ChartWriter w) {
        try {
            w.write();
            charts.add(file);
        } catch (IOException | RuntimeException e) {
            System.err.println("warning: chart " + file + " not written: " + e);
        }
    }

    private List<Result> select(String bench, Predicate<Result> p) {
        List<Result> l = new ArrayList<>();
        for (Result r : results) {
            if (r.bench.equals(bench) && p.test(r)) {
                l.add(r);
            }
        }
        return l;
    }

    private static Result one(List<Result> rs, Predicate<Result> p) {
        for (Result r : rs) {
            if (p.test(r)) {
                return r;
            }
        }
        return null;
    }

    /** The sequential loop with the same items and work, or null. */
    private Result sequentialFor(Result r) {
        if (r == null) {
            return null;
        }
        return one(select("SequentialBench", x -> true),
                x -> Objects.equals(x.p("items"), r.p("items")) && Objects.equals(x.p("work"), r.p("work")));
    }

    private static String cpu(Result r) {
        double[] c = r.secondary(CPU);
        return c == null ? "-" : f(c[0]);
    }

    /** Points {x, y[, error]} as rows {xs, ys[, errors]}. */
    private static double[][] xy(List<double[]> pts) {
        int rows = pts.isEmpty() ? 2 : pts.get(0).length;
        double[][] a = new double[rows][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            for (int k = 0; k < rows; k++) {
                a[k][i] = pts.get(i)[k];
            }
        }
        return a;
    }

    static String f(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    static String pm(double v, double e) {
        return Double.isNaN(e) ? f(v) + " ± n/a" : f(v) + " ± " + f(e);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * v);
    }

    private static String str(Ratio r) {
        return r == null ? "-" : r.toString();
    }

    private static String human(long n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) {
            return n / 1_000_000 + "M";
        }
        if (n >= 1000 && n % 1000 == 0) {
            return n / 1000 + "K";
        }
        return Long.toString(n);
    }

    /** A ratio a / b of two scores with its propagated uncertainty. */
    static final class Ratio {
        final double v;
        final double e;

        Ratio(double v, double e) {
            this.v = v;
            this.e = e;
        }

        static Ratio of(Result a, Result b) {
            if (a == null || b == null) {
                return null;
            }
            double v = a.score / b.score;
            double e = v * Math.sqrt(sq(a.error / a.score) + sq(b.error / b.score));
            return new Ratio(v, e);
        }

        private static double sq(double x) {
            return x * x;
        }

        @Override
        public String toString() {
            return pm(v, e);
        }
    }
}
