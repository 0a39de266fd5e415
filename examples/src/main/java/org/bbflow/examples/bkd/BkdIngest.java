package org.bbflow.examples.bkd;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.bkd.BkdStats;
import org.bbflow.bkd.BkdTree;
import org.bbflow.bkd.BkdWriter;
import org.bbflow.bkd.Box;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.examples.Latencies;
import org.bbflow.examples.Output;
import org.bbflow.examples.ProgressLine;

/**
 * Ingests points into a concurrent Bkd-tree with several inserters while readers run window
 * queries, then checks the index against the points themselves.
 *
 * <pre>{@code
 * BkdTree tree = BkdTree.builder(2).build();
 * Pipeline.of(pointSource,
 *             Farm.of(inserters, () -> new Inserter(tree)).withoutCollector())   // each with its own BkdWriter
 *         .run();
 * long n = tree.count(Box.of(min, max));   // lock-free, any thread, while inserts go on
 * }</pre>
 *
 * Readers are plain threads querying random windows as fast as they can until the ingest ends;
 * each also re-counts one fixed probe window and checks that its count never goes down (points are
 * only added, so a reader must never see the index shrink, even while trees are being merged).
 */
public final class BkdIngest {
    private BkdIngest() {
    }

    /**
     * The ingest.
     *
     * @param points random points to generate (ignored with a CSV file)
     * @param dims dimensions of random points
     * @param csv a CSV file of points (one per line, numbers separated by commas; a non-numeric first
     *        line is a header), or null for random points
     * @param inserters inserter nodes (farm workers)
     * @param readers query threads
     * @param window side of a query window as a fraction of the data's extent in each dimension
     * @param checks random windows compared with a brute-force count after the ingest
     * @param seed seed for points and windows
     * @param progress whether to print progress lines
     * @param directory where the index is kept (committed when the run ends; a new or empty
     *                  directory), or null for an index in memory only
     */
    public record Options(long points, int dims, Path csv, int inserters, int readers, double window, int checks,
                          long seed, boolean progress, Path directory) {
        /** Defaults: 2 million random 2-d points, 2 inserters, 1 reader, windows of 1% x 1%, in memory. */
        public static Options defaults() {
            return new Options(2_000_000, 2, null, 2, 1, 0.01, 200, 7, true, null);
        }

        /**
         * Options for an index in memory only.
         *
         * @param points number of random points
         * @param dims dimensions of random points
         * @param csv points from this CSV file instead, or null
         * @param inserters inserter nodes (farm workers)
         * @param readers query threads
         * @param window side of a query window as a fraction of the data's extent in each dimension
         * @param checks random windows compared with a brute-force count after the ingest
         * @param seed seed for points and windows
         * @param progress whether to print progress lines
         */
        public Options(long points, int dims, Path csv, int inserters, int readers, double window, int checks,
                       long seed, boolean progress) {
            this(points, dims, csv, inserters, readers, window, checks, seed, progress, null);
        }

        /**
         * Checks the options.
         *
         * @return these options
         * @throws IllegalArgumentException if a value is out of its range
         */
        public Options validated() {
            if (points < 1 || points > Integer.MAX_VALUE || dims < 1 || dims > BkdTree.MAX_DIMS || inserters < 1
                    || readers < 0 || window <= 0 || window > 1 || checks < 0) {
                throw new IllegalArgumentException("need 1 <= --points < 2^31, --dims 1.." + BkdTree.MAX_DIMS
                        + ", --inserters >= 1, --readers >= 0, 0 < --window <= 1, --checks >= 0");
            }
            if (directory != null && Files.exists(directory)) {
                boolean empty;
                try (java.util.stream.Stream<Path> s = Files.list(directory)) {
                    empty = s.findAny().isEmpty();
                } catch (IOException e) {
                    empty = false;
                }
                if (!empty) {
                    throw new IllegalArgumentException("--directory must be a new or empty directory: " + directory);
                }
            } else if (directory != null) {
                // a new directory is made with its parents: a parent that is a file failed only once the run had
                // started, after the header ("cannot open index directory FILE/idx: ...: Not a directory")
                for (Path p = directory.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                    if (Files.exists(p)) {
                        if (!Files.isDirectory(p)) {
                            throw new IllegalArgumentException("--directory " + directory + ": " + p
                                    + " is a file, not a directory");
                        }
                        break;
                    }
                }
            }
            return this;
        }
    }

    /** A point and its id. */
    public record Point(long id, double[] coords) {
    }

    /** Points from random numbers or a CSV file, all held in memory for the final check. */
    static List<Point> loadPoints(Options o) throws IOException {
        List<Point> points = new ArrayList<>();
        if (o.csv == null) {
            SplittableRandom random = new SplittableRandom(o.seed);
            for (long i = 0; i < o.points; i++) {
                double[] c = new double[o.dims];
                for (int d = 0; d < o.dims; d++) {
                    c[d] = random.nextDouble();
                }
                points.add(new Point(i, c));
            }
            return points;
        }
        try (BufferedReader in = Files.newBufferedReader(o.csv)) {
            String line;
            int lineNo = 0;
            int dims = -1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split(",");
                double[] c = new double[fields.length];
                try {
                    for (int d = 0; d < fields.length; d++) {
                        c[d] = Double.parseDouble(fields[d].trim());
                    }
                } catch (NumberFormatException e) {
                    if (lineNo == 1) {
                        continue; // a header
                    }
                    throw new IllegalArgumentException(o.csv + " line " + lineNo + ": not a number in '" + line + "'");
                }
                if (dims < 0) {
                    dims = c.length;
                } else if (c.length != dims) {
                    throw new IllegalArgumentException(o.csv + " line " + lineNo + ": " + c.length
                            + " coordinates, expected " + dims);
                }
                points.add(new Point(points.size(), c));
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException(o.csv + " holds no points");
        }
        return points;
    }

    /** A farm worker inserting through its own writer; publishes what it buffered at end of stream. */
    static final class Inserter implements Node<Point, Void> {
        private final BkdTree tree;
        private final AtomicLong inserted;
        private BkdWriter writer;

        Inserter(BkdTree tree, AtomicLong inserted) {
            this.tree = tree;
            this.inserted = inserted;
        }

        @Override
        public void init(NodeContext context) {
            writer = tree.writer();
        }

        @Override
        public void onItem(Point p, Outbox<Void> out) {
            writer.insert(p.coords(), p.id());
            inserted.incrementAndGet();
        }

        @Override
        public void onEos(Outbox<Void> out) {
            writer.flush();
        }

        @Override
        public void close() {
            if (writer != null) {
                writer.close();
            }
        }

        @Override
        public String name() {
            return "inserter";
        }
    }

    /** A query thread: random windows until told to stop, plus a probe window whose count must never drop. */
    static final class Reader extends Thread {
        private final BkdTree tree;
        private final double[] lo;
        private final double[] hi;
        private final double window;
        private final SplittableRandom random;
        private volatile boolean stop;
        final Latencies latencies = new Latencies();
        long queries;
        long probeDrops;

        Reader(int index, BkdTree tree, double[] lo, double[] hi, double window, long seed) {
            super("bkd-reader-" + index);
            setDaemon(true);
            this.tree = tree;
            this.lo = lo;
            this.hi = hi;
            this.window = window;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public void run() {
            Box probe = Box.of(lo, mid(lo, hi));
            long lastProbe = 0;
            do { // at least one query, however short the ingest
                Box box = randomWindow(random, lo, hi, window);
                long t0 = System.nanoTime();
                tree.count(box);
                latencies.record(System.nanoTime() - t0);
                queries++;
                if (queries % 16 == 1) {
                    long c = tree.count(probe);
                    if (c < lastProbe) {
                        probeDrops++;
                    }
                    lastProbe = c;
                }
            } while (!stop);
        }

        void finish() throws InterruptedException {
            stop = true;
            join();
        }
    }

    static double[] mid(double[] lo, double[] hi) {
        double[] m = new double[lo.length];
        for (int d = 0; d < lo.length; d++) {
            m[d] = (lo[d] + hi[d]) / 2;
        }
        return m;
    }

    static Box randomWindow(SplittableRandom random, double[] lo, double[] hi, double window) {
        double[] a = new double[lo.length];
        double[] b = new double[lo.length];
        for (int d = 0; d < lo.length; d++) {
            double side = (hi[d] - lo[d]) * window;
            a[d] = lo[d] + random.nextDouble() * (hi[d] - lo[d] - side);
            b[d] = a[d] + side;
        }
        return Box.of(a, b);
    }

    /**
     * The outcome.
     *
     * @param points points ingested
     * @param ingestSeconds time from the first insert to the last published buffer
     * @param queries window queries run by the readers during the ingest
     * @param latencies query latencies during the ingest
     * @param probeDrops times a reader saw its probe window's count go down (must be 0)
     * @param totalCount the index's count of everything after the ingest
     * @param checks random windows compared with brute force
     * @param mismatches windows whose count differed from brute force (must be 0)
     */
    public record Result(long points, double ingestSeconds, long queries, Latencies latencies, long probeDrops,
                         long totalCount, int checks, int mismatches, BkdStats index, RunStats stats) {
        /** Inserts per second. */
        public double insertsPerSecond() {
            return points / ingestSeconds;
        }

        /** Whether the index holds exactly the points and never appeared to shrink. */
        public boolean correct() {
            return totalCount == points && mismatches == 0 && probeDrops == 0;
        }
    }

    /** Runs the ingest silently. */
    public static Result run(Options o) throws IOException, InterruptedException {
        return run(o, Output.silent());
    }

    /** Runs the ingest. */
    public static Result run(Options o, Output log) throws IOException, InterruptedException {
        o.validated();
        List<Point> points = loadPoints(o);
        int dims = points.get(0).coords().length;
        double[] lo = new double[dims];
        double[] hi = new double[dims];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (Point p : points) {
            for (int d = 0; d < dims; d++) {
                lo[d] = Math.min(lo[d], p.coords()[d]);
                hi[d] = Math.max(hi[d], p.coords()[d]);
            }
        }
        BkdTree.Builder builder = BkdTree.builder(dims);
        if (o.directory != null) {
            builder.directory(o.directory);     // close() commits the ingested points there
        }
        try (BkdTree tree = builder.build()) {
            List<Reader> readers = new ArrayList<>();
            for (int i = 0; i < o.readers; i++) {
                readers.add(new Reader(i, tree, lo, hi, o.window, o.seed + 1 + i));
            }
            AtomicLong inserted = new AtomicLong();
            Pipeline<Void, Void> ingest = Pipeline.of(
                    Nodes.fromIterable(points),
                    Farm.of(o.inserters, () -> new Inserter(tree, inserted)).withoutCollector());
            readers.forEach(Thread::start);
            long t0 = System.nanoTime();
            RunStats stats;
            double seconds;
            try {
                Flow running = Flow.start(ingest);
                try (ProgressLine p = o.progress
                        ? ProgressLine.start(log, "bkd ingest", running, inserted::get, "points") : null) {
                    stats = running.join();
                }
                seconds = (System.nanoTime() - t0) / 1e9;
            } finally {
                for (Reader r : readers) {
                    r.finish(); // also when the ingest failed: no reader outlives the index
                }
            }
            tree.awaitMerges();
            long total = tree.count(Box.all(dims));
            SplittableRandom random = new SplittableRandom(o.seed * 31 + 17);
            int mismatches = 0;
            for (int i = 0; i < o.checks; i++) {
                Box box = randomWindow(random, lo, hi, Math.min(1.0, o.window * 5));
                long brute = points.stream().filter(p -> box.contains(p.coords())).count();
                if (tree.count(box) != brute) {
                    mismatches++;
                }
            }
            long queries = readers.stream().mapToLong(r -> r.queries).sum();
            long drops = readers.stream().mapToLong(r -> r.probeDrops).sum();
            Latencies latencies = Latencies.merge(readers.stream().map(r -> r.latencies).toArray(Latencies[]::new));
            return new Result(points.size(), seconds, queries, latencies, drops, total, o.checks, mismatches,
                    tree.stats(), stats);
        }
    }

    /**
     * The {@code bkd} subcommand: runs the ingest and prints what it measured.
     *
     * @param o the options
     * @param out where to print
     * @return 0 if the index matched the brute-force counts, else 1
     * @throws IOException if the CSV file cannot be read
     * @throws InterruptedException if interrupted while waiting for the readers
     */
    public static int main(Options o, Output out) throws IOException, InterruptedException {
        out.println(String.format(Locale.ROOT, "Bkd-tree ingest: %s, %d inserter(s), %d reader(s) querying"
                        + " windows of %.2f%% of the space", o.csv != null ? "points of " + o.csv : String.format(Locale.ROOT,
                        "%,d random %d-d points", o.points, o.dims), o.inserters, o.readers,
                100 * Math.pow(o.window, o.dims)));
        Result r = run(o, out);
        out.println(String.format(Locale.ROOT, "inserted %,d points in %.3f s = %,.0f inserts/s", r.points(),
                r.ingestSeconds(), r.insertsPerSecond()));
        out.println(String.format(Locale.ROOT, "window queries during ingest: %,d (%,.0f/s); latency %s", r.queries(),
                r.queries() / r.ingestSeconds(), r.latencies().summary()));
        out.println(String.format(Locale.ROOT, "index after ingest: %d trees, %,d points, %,d merges; count(all) = %,d",
                r.index().trees(), r.index().points(), r.index().merges(), r.totalCount()));
        out.println(String.format(Locale.ROOT, "checked %d windows against brute force: %d mismatches;"
                + " probe count decreases seen by readers: %d", r.checks(), r.mismatches(), r.probeDrops()));
        out.println("");
        out.println("per-node statistics of the ingest:");
        for (String line : r.stats().table().split("\n")) {
            out.println(line);
        }
        return r.correct() ? 0 : 1;
    }
}
