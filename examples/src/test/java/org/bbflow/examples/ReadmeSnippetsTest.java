package org.bbflow.examples;

import static org.bbflow.examples.demo.MandelbrotDemo.renderRow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.bbflow.bkd.BkdTree;
import org.bbflow.bkd.Box;
import org.bbflow.bkd.IndexCheck;
import org.bbflow.bkd.Neighbor;
import org.bbflow.bkd.Snapshot;
import org.bbflow.core.*;
import org.bbflow.core.io.Chunk;
import org.bbflow.core.io.ChunkProcessor;
import org.bbflow.core.io.ChunkSink;
import org.bbflow.core.io.ChunkSource;
import org.bbflow.core.io.NBufJob;
import org.bbflow.core.ipc.IpcCodec;
import org.bbflow.core.ipc.IpcOptions;
import org.bbflow.core.ipc.IpcReceiver;
import org.bbflow.core.ipc.IpcSender;
import org.bbflow.core.sched.DependencyScheduler;
import org.bbflow.core.sched.TaskGraph;
import org.bbflow.examples.demo.MandelbrotDemo.Row;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import org.bbflow.net.Codec;
import org.bbflow.net.NetClient;
import org.bbflow.net.RemoteOutlet;
import org.bbflow.net.TlsContexts;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteBlocks;
import org.bbflow.net.dist.DistributedJob;
import org.bbflow.net.dist.Placement;
import org.bbflow.net.dist.WorkerLoss;
import org.bbflow.net.dist.*;
import org.bbflow.micrometer.FlowMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of the README and of {@code docs/*.md}, compiled and (where they need no second
 * machine or files in the working directory) run. Every {@code ```java} block of those documents is
 * preceded by a {@code <!-- snippet: NAME -->} line and must equal, whitespace aside, the region
 * between {@code // tag::NAME[]} and {@code // end::NAME[]} of one test source of this module
 * (regions with the same name are joined in file order; most regions are in this file; the block's
 * leading {@code import} lines must be imports of the file that holds its region). A name may appear
 * in several documents, always with the same code, but only once per document. Edit both together:
 * a change on one side only fails {@link #docBlocksEqualTaggedRegions()}.
 */
class ReadmeSnippetsTest {

    // ---------------------------------------------------------------- documents <-> test sources

    /** A named region of a test source, and the imports of that source. */
    record Region(Path file, List<String> lines, Set<String> imports) {
    }

    @Test
    void docBlocksEqualTaggedRegions() throws IOException {
        Path root = projectRoot();
        Map<String, Region> regions = regionsOfTestSources(root.resolve("examples/src/test/java"));
        List<String> problems = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        for (Path doc : documents(root)) {
            problems.addAll(checkBlocks(root.relativize(doc).toString(),
                    Files.readAllLines(doc, StandardCharsets.UTF_8), regions, used));
        }
        for (String name : regions.keySet()) {
            if (!used.contains(name)) {
                problems.add("tagged region " + name + " (" + regions.get(name).file().getFileName()
                        + ") is in no document's java block");
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " snippet problem(s):\n" + String.join("\n", problems));
        }
        assertTrue(used.size() >= 30, "expected at least 30 distinct Java examples in README.md and docs/, found "
                + used.size());
    }

    /** README.md and every {@code docs/*.md}, in name order. */
    static List<Path> documents(Path root) throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (java.util.stream.Stream<Path> s = Files.list(root.resolve("docs"))) {
            s.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /**
     * Checks every java block of one document against its region; records the names used.
     *
     * @return the problems found, each naming the document and line
     */
    static List<String> checkBlocks(String docName, List<String> doc, Map<String, Region> regions, Set<String> used) {
        List<String> problems = new ArrayList<>();
        Set<String> inThisDoc = new LinkedHashSet<>();
        Pattern marker = Pattern.compile("<!--\\s*snippet:\\s*([\\w-]+)\\s*-->");
        for (int i = 0; i < doc.size(); i++) {
            if (!doc.get(i).strip().equals("```java")) {
                continue;
            }
            int start = i + 1;
            int end = start;
            while (end < doc.size() && !doc.get(end).strip().equals("```")) {
                end++;
            }
            String where = docName + " line " + (i + 1);
            List<String> block = new ArrayList<>(doc.subList(start, end));
            Matcher m = i > 0 ? marker.matcher(doc.get(i - 1).strip()) : null;
            if (m == null || !m.matches()) {
                problems.add(where + ": java block without a <!-- snippet: NAME --> line above it");
            } else {
                String name = m.group(1);
                used.add(name);
                if (!inThisDoc.add(name)) {
                    problems.add(where + ": snippet name used twice in this document: " + name);
                }
                Region region = regions.get(name);
                while (!block.isEmpty() && (block.get(0).strip().startsWith("import ") || block.get(0).isBlank())) {
                    String imp = block.remove(0).strip();
                    if (!imp.isEmpty() && region != null && !region.imports().contains(imp)) {
                        problems.add("snippet " + name + ": '" + imp + "' is not an import of "
                                + region.file().getFileName());
                    }
                }
                if (region == null) {
                    problems.add(where + ": no // tag::" + name + "[] region in examples/src/test/java");
                } else if (!normalize(block).equals(normalize(region.lines()))) {
                    problems.add("snippet " + name + " (" + where + ") differs from its tagged region in "
                            + region.file().getFileName() + ":\n" + docName + ":\n  "
                            + String.join("\n  ", normalize(block))
                            + "\ntest:\n  " + String.join("\n  ", normalize(region.lines())));
                }
            }
            i = end;
        }
        return problems;
    }

    /** The tagged regions of every Java file under {@code dir}; a name tagged in two files is an error. */
    static Map<String, Region> regionsOfTestSources(Path dir) throws IOException {
        List<Path> sources;
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            sources = s.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        Map<String, Region> regions = new LinkedHashMap<>();
        for (Path f : sources) {
            List<String> source = Files.readAllLines(f, StandardCharsets.UTF_8);
            Set<String> imports = source.stream().map(String::strip).filter(l -> l.startsWith("import "))
                    .collect(Collectors.toSet());
            for (Map.Entry<String, List<String>> e : taggedRegions(source).entrySet()) {
                Region previous = regions.put(e.getKey(), new Region(f, e.getValue(), imports));
                if (previous != null) {
                    throw new IllegalStateException("region " + e.getKey() + " is tagged in " + previous.file()
                            + " and in " + f);
                }
            }
        }
        return regions;
    }

    /** Lines stripped, blank lines dropped, runs of blanks inside a line made one. */
    static List<String> normalize(List<String> lines) {
        return lines.stream().map(l -> l.strip().replaceAll("\\s+", " ")).filter(l -> !l.isEmpty())
                .collect(Collectors.toList());
    }

    static Map<String, List<String>> taggedRegions(List<String> source) {
        Pattern open = Pattern.compile("//\\s*tag::([\\w-]+)\\[\\]");
        Pattern close = Pattern.compile("//\\s*end::([\\w-]+)\\[\\]");
        Map<String, List<String>> regions = new LinkedHashMap<>();
        String current = null;
        for (String line : source) {
            String s = line.strip();
            Matcher o = open.matcher(s);
            Matcher c = close.matcher(s);
            if (o.matches()) {
                if (current != null) {
                    throw new IllegalStateException("tag " + o.group(1) + " opened inside " + current);
                }
                current = o.group(1);
                regions.computeIfAbsent(current, k -> new ArrayList<>());
            } else if (c.matches()) {
                if (!c.group(1).equals(current)) {
                    throw new IllegalStateException("end::" + c.group(1) + " closes " + current);
                }
                current = null;
            } else if (current != null) {
                regions.get(current).add(line);
            }
        }
        if (current != null) {
            throw new IllegalStateException("tag " + current + " never closed");
        }
        return regions;
    }

    static Path projectRoot() {
        Path dir = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("examples"))) {
                return p;
            }
        }
        throw new IllegalStateException("no README.md above " + dir);
    }

    @Test
    void aBlockWithoutRegionOrWithOtherCodeIsReported() {
        Map<String, Region> regions = Map.of("a", new Region(Path.of("T.java"), List.of("  run(1);"),
                Set.of("import x.Y;")));
        Set<String> used = new LinkedHashSet<>();
        List<String> doc = List.of("<!-- snippet: a -->", "```java", "import x.Y;", "run(1);", "```",
                "<!-- snippet: a -->", "```java", "import x.Z;", "run(2);", "```",
                "```java", "run(1);", "```", "<!-- snippet: b -->", "```java", "```");
        List<String> problems = checkBlocks("doc.md", doc, regions, used);
        assertEquals(5, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("used twice"), problems.get(0));
        assertTrue(problems.get(1).contains("'import x.Z;' is not an import"), problems.get(1));
        assertTrue(problems.get(2).contains("differs"), problems.get(2));
        assertTrue(problems.get(3).contains("without a <!-- snippet"), problems.get(3));
        assertTrue(problems.get(4).contains("no // tag::b[]"), problems.get(4));
        assertEquals(Set.of("a", "b"), used);
    }

    @Test
    void aBlockChangedOnOneSideIsReported() {
        List<String> region = List.of("        int x = 1;   // one", "", "        run(x);");
        assertEquals(normalize(List.of("int x = 1; // one", "run(x);")), normalize(region));
        assertTrue(!normalize(List.of("int x = 2; // one", "run(x);")).equals(normalize(region)));
        Map<String, List<String>> r = taggedRegions(List.of("a", "// tag::t[]", "x();", "// end::t[]",
                "b", "  // tag::t[]", "y();", "  // end::t[]"));
        assertEquals(List.of("x();", "y();"), r.get("t"));
    }

    // ---------------------------------------------------------------- the snippets, run

    static long heavy(long x) {
        long y = x;
        for (int i = 0; i < 20; i++) {
            y = (y * 31 + i) % 1_000_003;
        }
        return y;
    }

    @Test
    @Timeout(60)
    void longNodes() {
        // tag::long-nodes[]
        long[] sum = new long[1];
        Pipeline.of(LongNodes.range(1, 10_000_000), LongNodes.map(x -> 2 * x), LongNodes.sink(x -> sum[0] += x)).run();
        // end::long-nodes[]
        assertEquals(10_000_000L * 10_000_001L, sum[0]);
    }

    @Test
    @Timeout(60)
    void doubleNodes() {
        // tag::double-nodes[]
        double[] sum = new double[1];
        Pipeline.of(LongNodes.range(1, 1_000_000), DoubleNodes.fromLongs(i -> 1.0 / i),
                DoubleNodes.map(Math::sqrt), DoubleNodes.sink(x -> sum[0] += x)).run();
        // end::double-nodes[]
        double expected = 0;
        for (long i = 1; i <= 1_000_000; i++) {
            expected += Math.sqrt(1.0 / i);
        }
        assertEquals(expected, sum[0]); // in order, so the same rounding as the loop
    }

    @Test
    @Timeout(60)
    void tour() {
        // tag::tour[]
        // A source, a farm of 4 CPU-bound workers whose results come out in input order, a sink.
        LongAdder sum = new LongAdder();
        Pipeline<Void, Void> p = Pipeline.of(
                Nodes.range(1, 1_000_000),                               // Source<Long>
                Farm.of(4, () -> Nodes.map((Long x) -> heavy(x))).ordered(),
                Nodes.sink((Long x) -> sum.add(x)));
        RunStats stats = p.run();          // = Flow.start(p).join()
        System.out.println(stats);         // per-node table: items in/out, busy/idle ms, waits
        // end::tour[]
        assertEquals(LongStream.rangeClosed(1, 1_000_000).map(ReadmeSnippetsTest::heavy).sum(), sum.sum());
    }

    @Test
    @Timeout(30)
    void statefulNode() {
        // tag::stateful-node[]
        Node<Long, Long> average = new Node<>() {          // a stateful node
            long n, total;
            public void onItem(Long x, Outbox<Long> out) { n++; total += x; }
            public void onEos(Outbox<Long> out) { if (n > 0) out.send(total / n); }
        };
        // end::stateful-node[]
        Queue<Long> results = new ConcurrentLinkedQueue<>();
        Pipeline.of(Nodes.range(1, 9), average, Nodes.sink(results::add)).run();
        assertEquals(List.of(5L), List.copyOf(results));
    }

    @Test
    @Timeout(30)
    void topology() {
        Source<Long> source = Nodes.range(1, 30);
        Supplier<Node<Long, Long>> w = () -> Nodes.map((Long x) -> x * 10);
        Supplier<Node<Long, Long>> v = () -> Nodes.map((Long x) -> x + 1);
        Queue<Long> results = new ConcurrentLinkedQueue<>();
        Node<Long, Void> sink = Nodes.sink(results::add);
        // tag::topology[]
        Pipeline.of(source, Farm.of(3, w).withoutCollector())
                .then(Farm.of(3, v).withoutEmitter(), Topology.PAIRWISE)   // worker i -> worker i
                .then(sink)
                .run();
        // end::topology[]
        assertEquals(LongStream.rangeClosed(1, 30).map(x -> x * 10 + 1).boxed().collect(Collectors.toSet()),
                Set.copyOf(results));
        assertEquals(30, results.size());
    }

    static Node<String, Integer> parse() {
        return Nodes.map(Integer::parseInt);
    }

    static Node<Integer, Integer> score() {
        return Nodes.map((Integer x) -> x * x);
    }

    @Test
    @Timeout(30)
    void nestedFarm() {
        // tag::nested-farm[]
        // parse() and score() return new nodes: a node instance runs in one place of one flow only
        Farm<String, Integer> scoring = Farm.of(4, () -> Pipeline.of(parse(), Farm.of(2, () -> score())))
                .dispatch(Dispatch.onDemand());
        // end::nested-farm[]
        Queue<Integer> results = new ConcurrentLinkedQueue<>();
        Pipeline.of(Nodes.fromIterable(List.of("1", "2", "3", "4", "5")), scoring, Nodes.sink(results::add)).run();
        List<Integer> sorted = new ArrayList<>(results);
        Collections.sort(sorted);
        assertEquals(List.of(1, 4, 9, 16, 25), sorted);
    }

    @Test
    @Timeout(30)
    void orderedOnDemand() {
        // tag::ordered-on-demand[]
        // a slow worker gets few items, and results still leave in input order
        Farm<Long, Long> ordered = Farm.of(4, () -> Nodes.map((Long x) -> heavy(x)))
                .dispatch(Dispatch.onDemand())
                .ordered(64);
        // end::ordered-on-demand[]
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Pipeline.of(Nodes.range(1, 500), ordered, Nodes.sink((Long x) -> out.add(x))).run();
        assertEquals(LongStream.rangeClosed(1, 500).map(ReadmeSnippetsTest::heavy).boxed().collect(Collectors.toList()), out);
    }

    @Test
    @Timeout(30)
    void feedback() {
        Queue<Long> done = new ConcurrentLinkedQueue<>();
        // tag::feedback[]
        // master-worker: items go round until they reach 0
        Farm<Long, Long> masterWorker = Farm.of(4, () -> Nodes.map((Long x) -> x - 1))
            .emitter(Nodes.flatMap((Long x, Outbox<Long> o) -> { if (x > 0) o.send(x); else done.add(x); }))
            .feedback().withoutCollector();
        // end::feedback[]
        Pipeline.of(Nodes.range(1, 20), masterWorker).run();
        assertEquals(20, done.size());
        assertTrue(done.stream().allMatch(x -> x == 0L));
    }

    record Rec(int id, String text) {
    }

    static Node<Long, Long> rNode() {
        return Nodes.identity();
    }

    @Test
    @Timeout(30)
    void allToAll() {
        Nodes.ThrowingFunction<String, Rec> parse = s -> new Rec(Integer.parseInt(s.substring(0, 1)), s);
        Queue<Rec> stored = new ConcurrentLinkedQueue<>();
        Nodes.ThrowingConsumer<Rec> store = stored::add;
        Farm<Long, Long> f1 = Farm.of(2, () -> Nodes.map((Long x) -> x + 1));
        Farm<Long, Long> f2 = Farm.of(2, () -> Nodes.map((Long x) -> x * 2));
        // tag::all-to-all[]
        AllToAll<String, Void> a2a = AllToAll.<String, Void>of(3, () -> Nodes.map(parse), 2, () -> Nodes.sink(store))
                .dispatch(Dispatch.byKey(Rec::id));
        Block<Long, Long> fused = Farm.combine(f1, f2, () -> rNode(), null, true);
        // end::all-to-all[]
        Pipeline.of(Nodes.fromIterable(List.of("1a", "2b", "3c", "1d")), a2a).run();
        assertEquals(4, stored.size());
        LongAdder sum = new LongAdder();
        Pipeline.of(Nodes.range(1, 10), fused, Nodes.sink((Long x) -> sum.add(x))).run();
        assertEquals(LongStream.rangeClosed(1, 10).map(x -> (x + 1) * 2).sum(), sum.sum());
    }

    @Test
    @Timeout(30)
    void allToAllFeedback() {
        // tag::a2a-feedback[]
        // every item goes round until it is below 10, back to the left member that sent it
        AllToAll<Long, Long> loop = AllToAll.<Long, Long>of(2, () -> Nodes.identity(), 3,
                () -> Nodes.<Long, Long>flatMap((x, o) -> { if (x >= 10) o.send(x / 2); else o.sendTo(2, x); }))
                .feedback();
        // end::a2a-feedback[]
        List<Long> out = Collections.synchronizedList(new ArrayList<>());
        Pipeline.of(Nodes.range(1, 100), loop, Nodes.sink((Long x) -> out.add(x))).run();
        List<Long> expected = new ArrayList<>();
        for (long x = 1; x <= 100; x++) {
            long y = x;
            while (y >= 10) {
                y /= 2;
            }
            expected.add(y);
        }
        List<Long> got = new ArrayList<>(out);
        Collections.sort(expected);
        Collections.sort(got);
        assertEquals(expected, got);
    }

    @Test
    @Timeout(30)
    void waitStrategies() {
        Pipeline<Void, Long> pipeline = Pipeline.of(Nodes.range(1, 1000), Nodes.map((Long x) -> x + 1));
        LongAdder sum = new LongAdder();
        Node<Long, Void> sink = Nodes.sink((Long x) -> sum.add(x));
        // tag::wait-strategies[]
        pipeline.then(sink, ChannelSpec.unbounded().withWaitStrategy(WaitStrategy.busySpin()));  // this edge
        Flow flow = Flow.start(pipeline, FlowOptions.defaults()                              // all others
                .withWaitStrategy(WaitStrategy.blocking())
                .withChannels(ChannelSpec.bounded(256)));
        flow.join();
        // end::wait-strategies[]
        assertEquals(LongStream.rangeClosed(2, 1001).sum(), sum.sum());
    }

    @Test
    @Timeout(60)
    void mandelbrot() {
        int rows = 40;
        int width = 60;
        int maxIterations = 100;
        int workers = 2;
        long[] image = new long[rows];
        // tag::mandelbrot[]
        Pipeline<Void, Void> flow = Pipeline.of(
            Nodes.source(out -> { for (int y = 0; y < rows; y++) out.send(y); }),
            Farm.of(workers, () -> Nodes.map((Integer y) -> renderRow(y, width, rows, maxIterations))).ordered(),
            Nodes.sink((Row r) -> image[r.y()] = r.iterations()));
        RunStats stats = flow.run();
        System.out.println(stats.table());
        // end::mandelbrot[]
        long[] expected = new long[rows];
        for (int y = 0; y < rows; y++) {
            expected[y] = renderRow(y, width, rows, maxIterations).iterations();
        }
        assertArrayEquals(expected, image);
    }

    static final class CountingProcessor implements ChunkProcessor<Long> {
        private long bytes;

        @Override
        public void process(Chunk chunk) {
            bytes += chunk.length();
        }

        @Override
        public Long result() {
            return bytes;
        }
    }

    /** Compiled, not run: it reads and writes files in the working directory. */
    @SuppressWarnings("unused")
    static void nbuf() {
        // tag::nbuf[]
        NBufJob.Result<Long> r = NBufJob.of(ChunkSource.of(Path.of("in.bin"), 64L << 20, 8, 100),
                                            () -> new CountingProcessor())   // one ChunkProcessor per worker
                .workers(4)                       // 1 = sequential execution (chunks in input order)
                .ordered(true)                    // output in input order (by Chunk.sequence())
                .to(ChunkSink.to(Path.of("out.bin"))                  // targets are closed at the end
                             .alsoTo(Path.of("errors.bin"), (c, off, len) -> c.array()[off] == 'E'))  // filtered
                .merge(Long::sum)                 // per-worker accumulators merged at the end
                .run();                           // r.value(), r.stats(), r.peakBuffers() <= 8
        // end::nbuf[]
    }

    record Segment(String file, long offset, long value) {
        Result compute() {
            return new Result(file + "@" + offset, value * 2);
        }
    }

    record Result(String name, long value) {
    }

    @Test
    @Timeout(30)
    void dependencyScheduler() {
        Segment segA = new Segment("a", 0, 1);
        Segment segB = new Segment("b", 0, 2);
        Segment sumAB = new Segment("a", 8, 3);
        // tag::dependency-scheduler[]
        TaskGraph<String, Segment> g = TaskGraph.create();
        g.add("fft-a", segA).add("fft-b", segB).add("sum", sumAB, "fft-a", "fft-b");
        Block<Void, Result> job = DependencyScheduler.<String, Segment, Result>of(g, 4, () -> seg -> seg.compute())
                .locality(Comparator.comparing(Segment::file).thenComparingLong(Segment::offset))
                .maxInFlight(4)                     // default: one task per worker
                .block();                           // compose it, or job.run()
        // end::dependency-scheduler[]
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        Pipeline.of(job, Nodes.sink((Result r) -> order.add(r.name()))).run();
        assertEquals(3, order.size());
        assertEquals("a@8", order.get(2), "the task with dependencies comes last: " + order);
    }

    private final Queue<String> received = new ConcurrentLinkedQueue<>();

    private void handle(String s) {
        received.add(s);
    }

    private void ipcConsumer(Path path) {
        // tag::ipc[]
        // consumer process: creates the file and its header (replaces one whose receiver is gone)
        try (IpcReceiver<String> rx = IpcReceiver.create(path, IpcCodec.utf8(),
                IpcOptions.defaults().withCapacity(1 << 20).withProducers(2))) {
            for (String s; (s = rx.take()) != null; ) { handle(s); }   // null = every producer closed
        }
        // end::ipc[]
    }

    private static void ipcProducer(Path path) {
        // tag::ipc[]
        // each producer process
        try (IpcSender<String> tx = IpcSender.open(path, IpcCodec.utf8())) { tx.send("hello"); }  // close = EOS
        // in flows: IpcSource.create(path, codec, options) and IpcSink.open(path, codec, options)
        // end::ipc[]
    }

    @Test
    @Timeout(60)
    void ipc(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("channel.ipc");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread consumer = new Thread(() -> {
            try {
                ipcConsumer(path);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "readme-ipc-consumer");
        consumer.start();
        List<Thread> producers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (true) {   // the consumer creates the file; a producer that comes first retries
                    try {
                        ipcProducer(path);
                        return;
                    } catch (RuntimeException e) {
                        if (System.nanoTime() > deadline) {
                            failure.compareAndSet(null, e);
                            return;
                        }
                        try {
                            Thread.sleep(10);
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }, "readme-ipc-producer-" + i);
            producers.add(t);
            t.start();
        }
        for (Thread t : producers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        consumer.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(!consumer.isAlive(), "consumer still waiting");
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(List.of("hello", "hello"), List.copyOf(received));
    }

    /** Compiled, not run: it needs the hosts host-a and host-b (NetworkTest-style tests run it on loopback). */
    @SuppressWarnings("unused")
    static void network() {
        // tag::network[]
        NetOptions opts = NetOptions.defaults();              // 64 KiB batches, 1 ms flush, 4 MiB window, 30 s peer timeout
        // JVM A (host-a): the middle stage
        try (NetServer server = NetServer.bind(7000, opts)) {
            Pipeline.of(RemoteBlocks.inlet(server, 1, Codec.longs()),
                        Nodes.map((Long x) -> 2 * x + 1),
                        RemoteBlocks.outlet("host-b", 7001, 2, Codec.longs(), opts)).run();
        }
        // JVM B (host-b): source and sink
        try (NetServer back = NetServer.bind(7001, opts)) {
            Flow results = Flow.start(Pipeline.of(RemoteBlocks.inlet(back, 2, Codec.longs()), Nodes.sink(System.out::println)));
            Pipeline.of(Nodes.range(1, 1_000_000), RemoteBlocks.outlet("host-a", 7000, 1, Codec.longs(), opts)).run();
            results.join();
        }
        // end::network[]
    }

    @Test
    @Timeout(60)
    void bkd() {
        // tag::bkd[]
        try (BkdTree index = BkdTree.builder(2).build()) {
            index.insert(new double[] {12.5, 40.0}, 7L);   // thread-local buffer
            index.refresh();                              // publish this thread's buffer now
            index.query(Box.of(new double[] {10, 10}, new double[] {20, 50}), (id, p) -> System.out.println(id));
            index.delete(new double[] {12.5, 40.0}, 7L);  // tombstone, visible at once
            try (Snapshot snap = index.snapshot()) { snap.count(Box.all(2)); }  // repeatable view
        }
        // end::bkd[]
    }

    @Test
    @Timeout(60)
    void typedChain() {
        // tag::typed-chain[]
        Pipeline<Void, Void> p = Pipeline.from(Nodes.range(1, 1_000))      // Chain<Void, Long>
                .then(Farm.of(4, () -> Nodes.<Long, Long>map(x -> x * x)).ordered())
                .then(Nodes.map(x -> x * 2))                                  // x is a Long
                .map(x -> "item " + x)                                        // Chain<Void, String>
                .to(Nodes.sink(System.out::println));
        // end::typed-chain[]
        RunStats stats = p.run();
        List<NodeStats> nodes = stats.nodes();
        assertEquals(1000, nodes.stream().mapToLong(NodeStats::itemsIn).max().orElse(0),
                "every item reaches the sink");
        assertEquals(0, nodes.get(nodes.size() - 1).itemsOut());
    }

    @Test
    @Timeout(60)
    void flowLifeCycle() throws Exception {
        Pipeline<Void, Void> p = Pipeline.of(Nodes.range(1, 100), Nodes.sink((Long x) -> { }));
        ThreadFactory myFactory = Thread::new;
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("readme");
        // tag::flow-life-cycle[]
        try (Flow flow = Flow.start(p, FlowOptions.defaults().withThreadFactory(myFactory))) {
            flow.completion().thenAccept(stats -> log.info("\n" + stats));
            flow.join(Duration.ofMinutes(5));   // an exception or timeout here: close() cancels the flow
        }
        // end::flow-life-cycle[]
    }

    @Test
    @Timeout(60)
    void threadMapping() {
        Pipeline<Void, Void> p = Pipeline.of(Nodes.range(1, 100), Nodes.sink((Long x) -> { }));
        // tag::thread-mapping[]
        FlowOptions options = ThreadMapping.isSupported()              // Linux, JDK 22+ or 17 (see above)
                ? FlowOptions.defaults().withThreadMapping(ThreadMapping.roundRobin())
                : FlowOptions.defaults();
        RunStats stats = p.run(options);
        // end::thread-mapping[]
        assertEquals(100, stats.nodes().get(1).itemsIn());
    }

    @Test
    @Timeout(60)
    void micrometer() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Pipeline<?, ?> job = Pipeline.of(Nodes.range(1, 1_000), Nodes.map((Long x) -> x + 1),
                Nodes.sink((Long x) -> { })).named("ingest");
        // tag::micrometer[]
        Flow flow = Flow.start(job);                          // job: a Pipeline named "ingest"
        FlowMetrics metrics = new FlowMetrics(flow, Tags.of("app", "demo"));
        metrics.bindTo(registry);                             // any MeterRegistry (Prometheus, OTLP, JMX, ...)
        RunStats stats = flow.join();
        double sunk = registry.get(FlowMetrics.ITEMS_IN).tag("path", "ingest/sink[2]").functionCounter().count();
        metrics.close();                                      // removes the meters (until then: the final values)
        // end::micrometer[]
        assertEquals(1_000, sunk);
        assertEquals(stats.node("sink[2]").itemsIn(), sunk);
        assertTrue(registry.getMeters().isEmpty(), registry.getMeters().toString());
    }

    @Test
    @Timeout(60)
    void remoteFeedback() {
        NetOptions opts = NetOptions.defaults();
        Queue<Long> done = new ConcurrentLinkedQueue<>();
        try (NetServer serverA = NetServer.bind("127.0.0.1", 0, opts); NetServer serverB = NetServer.bind("127.0.0.1", 0, opts)) {
            String hostA = "127.0.0.1";
            String hostB = "127.0.0.1";
            int portA = serverA.port();
            int portB = serverB.port();
            // tag::remote-feedback[]
            // JVM B: the remote path, one Collatz step per item; it ends when JVM A completes the forward stream
            Flow steps = Flow.start(Pipeline.of(RemoteBlocks.inlet(serverB, 1, Codec.longs()),
                    Farm.of(4, () -> Nodes.map((Long x) -> x % 2 == 0 ? x / 2 : 3 * x + 1)),
                    RemoteBlocks.outlet(hostA, portA, 2, Codec.longs(), opts)));
            // JVM A: each item goes round through JVM B until it reaches 1, then leaves the loop
            Pipeline.of(Nodes.range(1, 1_000),
                    Pipeline.of(RemoteBlocks.roundTrip(hostB, portB, 1, Codec.longs(), opts, serverA, 2, Codec.longs()),
                                Nodes.flatMap((Long x, Outbox<Long> o) -> { if (x != 1) o.send(x); else o.sendTo(1, x); }))
                        .feedback(),
                    Nodes.sink(done::add)).run();   // returns once the loop is empty and JVM B's path has ended cleanly
            // end::remote-feedback[]
            steps.join();
        }
        assertEquals(1000, done.size());
        assertTrue(done.stream().allMatch(x -> x == 1L));
    }

    /** Compiled, not run: it needs a server with inlet 1 (the network module's tests run this on loopback). */
    @SuppressWarnings("unused")
    static void explicitCompletion(NetClient client, long n) {
        // tag::explicit-completion[]
        try (RemoteOutlet<Long> out = client.outlet(1, Codec.longs())) {
            for (long i = 0; i < n; i++) out.sendLong(i);
            out.complete();
        }
        // end::explicit-completion[]
    }

    /** Compiled, not run: it needs the cluster's key stores. */
    @SuppressWarnings("unused")
    static void mutualTls(char[] pw, byte[] secret) {
        // tag::mutual-tls[]
        KeyStore me = TlsContexts.load(Path.of("worker.p12"), pw);         // this host's key and certificate
        KeyStore ca = TlsContexts.load(Path.of("cluster-ca.p12"), pw);     // the private CA of the cluster
        NetOptions server = NetOptions.defaults().withSharedSecret(secret)
                .withTls(TlsContexts.mutualServer(me, pw, ca));            // workers: only cluster clients get in
        NetOptions client = NetOptions.defaults().withSharedSecret(secret)
                .withTls(TlsContexts.mutualClient(ca, me, pw));            // master: verifies the worker's host name
        // end::mutual-tls[]
    }

    /** Compiled, not run: it writes the directory {@code points} where it runs (the bkd tests cover it). */
    @SuppressWarnings("unused")
    static void bkdCommit() {
        // tag::bkd-commit[]
        try (BkdTree index = BkdTree.builder(2).directory(java.nio.file.Path.of("points")).build()) {
            index.insert(new double[] {12.5, 40.0}, 7L);
            index.commit();                               // durable now; a crash reopens to this state
        }                                                 // close() commits again and releases write.lock
        // end::bkd-commit[]
    }

    /** Compiled, not run: it reads the directory {@code points} where it runs (IndexCheckTest covers it). */
    @SuppressWarnings("unused")
    static void bkdCheck() throws java.io.IOException {
        // tag::bkd-check[]
        IndexCheck check = IndexCheck.run(java.nio.file.Path.of("points"));   // read only, takes no lock
        check.report().forEach(System.out::println);                         // one line per file
        if (!check.ok()) {
            throw new IllegalStateException("damaged index");
        }
        // end::bkd-check[]
    }

    @Test
    void bkdDistanceQueriesAndNeighbours() {
        assertEquals(1, bkdDistance());
    }

    static long bkdDistance() {
        // tag::bkd-distance[]
        try (BkdTree index = BkdTree.builder(2).build()) {
            index.insert(new double[] {3, 4}, 1L);
            index.insert(new double[] {6, 8}, 2L);
            index.refresh();
            index.withinDistance(new double[] {0, 0}, 10.0, (id, p) -> System.out.println(id));   // 1 and 2
            for (Neighbor x : index.nearest(new double[] {0, 0}, 2)) {          // nearest first
                System.out.println(x.id() + " at " + x.distance());              // 1 at 5.0, then 2 at 10.0
            }
            return index.countWithinDistance(new double[] {0, 0}, 5.0);        // 1: point 1 lies at 5.0
        }
        // end::bkd-distance[]
    }

    /** Compiled, not run: it is the master of a job with groups on three hosts (DistributedJobTest runs one). */
    @SuppressWarnings("unused")
    static void resendFarm(DistributedJob job, long n, Node<Long, Void> sink) {
        // tag::resend-farm[]
        Farm<Long, Long> farm = job.farm("squares", () -> Nodes.map((Long x) -> x * x), Codec.longs(), Codec.longs(),
                Placement.spread(2, "m", "w1", "w2"), WorkerLoss.RESEND_TASKS);
        job.run(Pipeline.of(Nodes.range(1, n), farm, sink));
        job.lostGroups();   // [w1] if w1 was lost; job.resentTasks(): how many of its tasks went elsewhere
        // end::resend-farm[]
    }

    /** Compiled, not run: it is the master of a job with groups on three hosts (DistributedJobTest runs one). */
    @SuppressWarnings("unused")
    static void linkedStages(DistributedJob job, long n, Node<Long, Void> sink) {
        // tag::linked-stages[]
        Block<Long, Long> parse = job.stage("parse", () -> Nodes.map((Long x) -> 3 * x + 1), Codec.longs(), Codec.longs(), "w1");
        Block<Long, Long> score = job.stage("score", () -> Nodes.map((Long y) -> 2 * y), Codec.longs(), Codec.longs(), "w2");
        job.run(Pipeline.of(Nodes.range(1, n), parse, score, sink)); // w1 sends parse's results straight to w2
        // end::linked-stages[]
    }

    /** Compiled, not run: it is the master of a job with groups on three hosts (DistributedJobTest runs one). */
    @SuppressWarnings("unused")
    static void allToAllMembers(DistributedJob job, long n, Node<Long, Void> sink) {
        // tag::a2a-members[]
        List<Block<Long, Long>> right = job.members("square", () -> Nodes.map((Long x) -> x * x), Codec.longs(),
                Codec.longs(), Placement.of("w1", "w2"));          // right member i runs in group w(i+1)
        AllToAll<Long, Long> a2a = AllToAll.<Long, Long>of(List.of(Nodes.<Long>identity(), Nodes.<Long>identity()), right)
                .dispatch(Dispatch.byKey((Long x) -> x % 16));   // the left side, in the master, routes by key
        job.run(Pipeline.of(Nodes.range(1, n), a2a, sink));
        // end::a2a-members[]
    }

    /** Compiled, not run: it is the master of a job with groups on three hosts (DistributedJobTest runs loops). */
    @SuppressWarnings("unused")
    static void loopAcrossGroups(DistributedJob job, long n, Node<Long, Void> sink) {
        // tag::loop-groups[]
        Farm<Long, Long> collatz = job.farm("collatz", () -> Nodes.<Long, Long>flatMap((x, out) -> {
            if (x == 1) {
                out.sendTo(1, x);                              // forward: leaves the loop
            } else {
                out.send(x % 2 == 0 ? x / 2 : 3 * x + 1);       // back to the emitter, in the master
            }
        }), Codec.longs(), Codec.longs(), Placement.spread(2, "w1", "w2"));
        job.run(Pipeline.of(Nodes.range(1, n), collatz.feedback(), sink)); // ends once nothing is left anywhere
        // end::loop-groups[]
    }

    /** Compiled, not run: the master of a job with groups on three hosts (DistributedJobTest runs one). */
    @SuppressWarnings("unused")
    static void readmeDistributed() {
        // tag::readme-distributed[]
        DistributedJob job = DistributedJob.fromEnvironment();   // this process's group: from `launch`, Slurm, Kubernetes or an MPI rank
        LongAdder sum = new LongAdder();
        Farm<Long, Long> squares = job.farm("squares", () -> Nodes.map((Long x) -> x * x),
                Codec.longs(), Codec.longs(), Placement.spread(2, "m", "w1", "w2"));
        job.run(Pipeline.of(Nodes.range(1, 1_000_000), squares, Nodes.sink((Long y) -> sum.add(y))));
        // end::readme-distributed[]
    }

    // A whole program, compiled, not run (it is started by `launch` in every process of a job).
    // tag::own-job[]
    public class SumOfSquares {
        public static void main(String[] args) {
            DistributedJob job = DistributedJob.fromSystemProperties();   // the job and this process's group, set by `launch`
            Farm<Long, Long> squares = job.farm("squares", () -> Nodes.map((Long x) -> x * x),
                    Codec.longs(), Codec.longs(),                         // how tasks and results cross the network
                    Placement.spread(2, "m", "w1", "w2"));                 // two workers in each group
            LongAdder sum = new LongAdder();
            job.run(Pipeline.of(Nodes.range(1, 1_000_000), squares, Nodes.sink((Long y) -> sum.add(y))));
            if (job.isMaster()) {
                System.out.println("sum of squares: " + sum);             // only the master sees the results
            }
        }
    }
    // end::own-job[]
}
