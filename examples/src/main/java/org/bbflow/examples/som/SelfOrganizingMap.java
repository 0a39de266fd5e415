package org.bbflow.examples.som;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.bbflow.core.Channel;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.examples.Machine;
import org.bbflow.examples.Output;
import org.bbflow.examples.ProgressLine;
import org.bbflow.examples.som.SomMessage.Learn;
import org.bbflow.examples.som.SomMessage.Learned;
import org.bbflow.examples.som.SomMessage.Listen;
import org.bbflow.examples.som.SomMessage.LocalBest;
import org.bbflow.examples.som.SomMessage.NeighbourDone;
import org.bbflow.examples.som.SomMessage.Search;
import org.bbflow.examples.som.SomMessage.Winner;

/**
 * A self-organizing map (Kohonen) trained sequentially and by a farm (the thesis, chapter 6).
 *
 * <p>The map is split into horizontal strips, one per worker. Adjacent workers are joined by
 * {@link Channel}s made by hand, one each way. For every sample:
 * <ol>
 *   <li>search: the emitter sends the sample to every worker; each finds its closest neuron and
 *       tells the collector, which picks the overall winner and sends it back to the emitter over
 *       the farm's feedback channel;</li>
 *   <li>learn: the emitter sends the learning step to the winner's worker and tells each neighbour
 *       the step reaches to listen; the winner's worker updates its strip, hands the step to those
 *       neighbours over their channels and waits for their acknowledgements, then reports to the
 *       collector, which forwards the winner downstream.</li>
 * </ol>
 * The emitter does not wait for the learning step to finish: right after it, it sends the next
 * sample's search. Each worker handles its commands in order, so it searches for sample t+1 only
 * after its strip has learnt sample t (the thesis acknowledges every learning step back to the
 * emitter; dropping that round trip is one of the improvements it suggests).
 * The learning radius is at most the thinnest strip, so a step reaches at most the two adjacent
 * workers. Both versions run the same {@link SomStrip} arithmetic, so for the same seed they must
 * produce the same winners and bit-identical maps.
 */
public final class SelfOrganizingMap {
    /**
     * The most weights a map may have, {@code rows * cols * dims}: the largest array length a JVM
     * allocates ({@code Integer.MAX_VALUE - 8}), since the map is one {@code double[]}.
     */
    public static final int MAX_WEIGHTS = Integer.MAX_VALUE - 8;

    private SelfOrganizingMap() {
    }

    /**
     * The map and its training.
     *
     * @param rows map rows (split among the workers)
     * @param cols map columns
     * @param dims weight-vector length (3: RGB colours, as in the thesis)
     * @param samples training samples (one search and one learning step each)
     * @param radius initial learning radius in grid cells; shrinks to 1
     * @param alpha initial learning rate, > 0 and <= 1 ({@link #validated} checks); shrinks to 0
     * @param workers farm widths to run, 1 .. workers
     * @param seed seed of the initial map and the samples
     * @param progress whether to print progress lines
     */
    public record Options(int rows, int cols, int dims, int samples, int radius, double alpha, int workers, long seed,
                          boolean progress) {
        /** Defaults: a 1024 x 1024 RGB map (24 MiB, as in the thesis), 1,000 samples. */
        public static Options defaults() {
            return new Options(1024, 1024, 3, 1_000, 8, 0.5, Math.max(2, Runtime.getRuntime().availableProcessors()),
                    42, true);
        }

        /**
         * Checks the options.
         *
         * @return these options
         * @throws IllegalArgumentException if a value is below 1, the map has more than {@link #MAX_WEIGHTS}
         *     weights, or a strip is thinner than the radius
         */
        public Options validated() {
            if (rows < 1 || cols < 1 || dims < 1 || samples < 1 || radius < 1 || workers < 1) {
                throw new IllegalArgumentException("--rows --cols --dims --samples --radius --workers must be >= 1");
            }
            // The map is one double[] of rows x cols x dims weights, its neurons numbered row * cols + col in
            // ints: past an array's length the run printed its header, then failed "integer overflow" (100,000 x
            // 100,000). The bound is the largest array a JVM allocates, 2^31 - 9 weights (16 GiB); the run holds
            // the map about three times over (sequential, strips, joined), so a map near it needs a large heap,
            // and one the heap cannot hold is Main's one-line "out of memory". In double: the product of three
            // ints passes a long's range too.
            double weights = (double) rows * cols * dims;
            if (weights > MAX_WEIGHTS) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "--rows %d x --cols %d x --dims %d is %,.0f"
                        + " weights, more than a map holds: at most %,d (%.0f GiB of doubles, the largest Java array)",
                        rows, cols, dims, weights, MAX_WEIGHTS, (double) MAX_WEIGHTS * Double.BYTES / (1L << 30)));
            }
            // a learning rate moves a weight that share of the way to the sample: above 1 it overshoots, and NaN
            // or an infinity made every weight NaN, a map that still compared "the same" bit for bit
            if (!(alpha > 0 && alpha <= 1)) {
                throw new IllegalArgumentException("--alpha must be > 0 and <= 1, got " + alpha);
            }
            if (rows / workers < radius) {
                throw new IllegalArgumentException("each of " + workers + " strips of a " + rows + "-row map must have at"
                        + " least --radius " + radius + " rows, so a learning step reaches only adjacent workers");
            }
            return this;
        }
    }

    /** The learning rate and radius of sample {@code t}: both shrink linearly over the training. */
    static double alphaAt(Options o, int t) {
        return o.alpha * (1.0 - (double) t / o.samples);
    }

    static int radiusAt(Options o, int t) {
        return Math.max(1, (int) Math.round(o.radius * (1.0 - (double) t / o.samples)));
    }

    /** The training samples: uniform in [0, 1)^dims, drawn after the map from the same seed. */
    static List<double[]> samples(Options o) {
        SplittableRandom random = new SplittableRandom(o.seed ^ 0x5DEECE66DL);
        List<double[]> s = new ArrayList<>(o.samples);
        for (int t = 0; t < o.samples; t++) {
            double[] x = new double[o.dims];
            for (int k = 0; k < o.dims; k++) {
                x[k] = random.nextDouble();
            }
            s.add(x);
        }
        return s;
    }

    /** A trained map and the winner of every sample. */
    public record Trained(double[] weights, int[] winners, double seconds, double coresUsed, long neighbourSteps,
                          RunStats stats) {
    }

    // ---- sequential ---------------------------------------------------------------------------

    /** Trains the whole map with a plain loop. */
    public static Trained trainSequential(Options o, List<double[]> samples) {
        SomStrip map = SomStrip.randomMap(o.rows, o.cols, o.dims, o.seed);
        int[] winners = new int[samples.size()];
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        for (int t = 0; t < samples.size(); t++) {
            double[] x = samples.get(t);
            int bmu = map.bestMatch(x).index();
            map.learn(x, bmu / o.cols, bmu % o.cols, alphaAt(o, t), radiusAt(o, t));
            winners[t] = bmu;
        }
        long wall = System.nanoTime() - t0;
        return new Trained(map.weights(), winners, wall / 1e9, Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall),
                0, null);
    }

    // ---- parallel: emitter, workers, collector ------------------------------------------------

    /** Takes samples from upstream and winners over the feedback channel; one search at a time. */
    static final class Emitter implements Node<Object, SomMessage> {
        private final Options options;
        private final int[] firstRows; // first row of each worker's strip, plus the map's row count
        private final ArrayDeque<double[]> waiting = new ArrayDeque<>();
        private NodeContext context;
        private int next;          // index of the next sample to start
        private boolean busy;
        private double[] current;

        Emitter(Options options, int[] firstRows) {
            this.options = options;
            this.firstRows = firstRows;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
        }

        @Override
        public void onItem(Object item, Outbox<SomMessage> out) {
            if (!context.fromFeedback()) {
                // samples wait here while one is searched (the thesis leaves them in the input channel;
                // a node receives whatever arrives, so it queues them itself)
                waiting.add((double[]) item);
                if (!busy) {
                    startNext(out);
                }
            } else if (item instanceof Winner) {
                Winner w = (Winner) item;
                int row = w.index() / options.cols;
                int col = w.index() % options.cols;
                int radius = radiusAt(options, w.t());
                int owner = ownerOf(row);
                out.sendTo(owner, new Learn(w.t(), current, row, col, alphaAt(options, w.t()), radius));
                if (owner > 0 && row - radius < firstRows[owner]) {
                    out.sendTo(owner - 1, new Listen(w.t(), owner));
                }
                if (owner < firstRows.length - 2 && row + radius >= firstRows[owner + 1]) {
                    out.sendTo(owner + 1, new Listen(w.t(), owner));
                }
                busy = false;
                if (!waiting.isEmpty()) {
                    startNext(out); // queued behind the learning step in every worker's channel
                }
            }
        }

        private void startNext(Outbox<SomMessage> out) {
            current = waiting.poll();
            busy = true;
            out.broadcast(new Search(next++, current));
        }

        private int ownerOf(int row) {
            int w = 0;
            while (row >= firstRows[w + 1]) {
                w++;
            }
            return w;
        }

        @Override
        public String name() {
            return "emitter";
        }
    }

    /** Holds one strip; searches it, learns in it, and exchanges learning steps with its neighbours. */
    static final class Worker implements Node<SomMessage, SomMessage> {
        final int index;
        final SomStrip strip;
        final Channel<SomMessage> toAbove;
        final Channel<SomMessage> fromAbove;
        final Channel<SomMessage> toBelow;
        final Channel<SomMessage> fromBelow;
        private final AtomicLong neighbourSteps;

        Worker(int index, SomStrip strip, Channel<SomMessage> toAbove, Channel<SomMessage> fromAbove,
               Channel<SomMessage> toBelow, Channel<SomMessage> fromBelow, AtomicLong neighbourSteps) {
            this.index = index;
            this.strip = strip;
            this.toAbove = toAbove;
            this.fromAbove = fromAbove;
            this.toBelow = toBelow;
            this.fromBelow = fromBelow;
            this.neighbourSteps = neighbourSteps;
        }

        @Override
        public void onItem(SomMessage m, Outbox<SomMessage> out) {
            if (m instanceof Search) {
                Search s = (Search) m;
                SomStrip.Match best = strip.bestMatch(s.x());
                out.send(new LocalBest(s.t(), index, best.index(), best.distance()));
            } else if (m instanceof Learn) {
                Learn l = (Learn) m;
                strip.learn(l.x(), l.bmuRow(), l.bmuCol(), l.alpha(), l.radius());
                boolean above = toAbove != null && strip.reachesAbove(l.bmuRow(), l.radius());
                boolean below = toBelow != null && strip.reachesBelow(l.bmuRow(), l.radius());
                if (above) {
                    toAbove.put(l);
                }
                if (below) {
                    toBelow.put(l);
                }
                if (above) {
                    fromAbove.take(); // the neighbour's acknowledgement
                }
                if (below) {
                    fromBelow.take();
                }
                out.send(new Learned(l.t(), l.bmuRow() * strip.cols() + l.bmuCol()));
            } else if (m instanceof Listen) {
                Listen listen = (Listen) m;
                boolean fromAboveNeighbour = listen.from() < index;
                Learn l = (Learn) (fromAboveNeighbour ? fromAbove : fromBelow).take();
                strip.learn(l.x(), l.bmuRow(), l.bmuCol(), l.alpha(), l.radius());
                (fromAboveNeighbour ? toAbove : toBelow).put(new NeighbourDone(l.t()));
                neighbourSteps.incrementAndGet();
            } else {
                throw new IllegalStateException("worker " + index + " cannot handle " + m);
            }
        }

        @Override
        public String name() {
            return "strip";
        }
    }

    /** Picks the winner among the workers' local bests; forwards each learnt sample's winner downstream. */
    static final class Collector implements Node<SomMessage, Object> {
        private final int workers;
        private int answers;
        private LocalBest best;

        Collector(int workers) {
            this.workers = workers;
        }

        @Override
        public void onItem(SomMessage m, Outbox<Object> out) {
            if (m instanceof LocalBest) {
                LocalBest b = (LocalBest) m;
                if (best == null || b.distance() < best.distance()
                        || (b.distance() == best.distance() && b.index() < best.index())) {
                    best = b;
                }
                if (++answers == workers) {
                    out.send(new Winner(b.t(), best.index()));       // feedback to the emitter
                    answers = 0;
                    best = null;
                }
            } else if (m instanceof Learned) {
                out.sendTo(1, ((Learned) m).index());                 // forward: the sample's winner
            }
        }

        @Override
        public String name() {
            return "collector";
        }
    }

    /** Trains the map with a farm of {@code workers} strips. */
    public static Trained trainParallel(Options o, List<double[]> samples, int workers, Output out) {
        if (o.rows / workers < o.radius) {
            throw new IllegalArgumentException(workers + " strips of " + o.rows + " rows are thinner than the radius "
                    + o.radius);
        }
        SomStrip map = SomStrip.randomMap(o.rows, o.cols, o.dims, o.seed);
        int[] firstRows = new int[workers + 1];
        for (int i = 0; i <= workers; i++) {
            firstRows[i] = (int) ((long) o.rows * i / workers);
        }
        // channels between neighbours: down[i] carries worker i -> i+1, up[i] carries worker i+1 -> i
        List<Channel<SomMessage>> down = new ArrayList<>();
        List<Channel<SomMessage>> up = new ArrayList<>();
        for (int i = 0; i + 1 < workers; i++) {
            down.add(Channel.spsc(4));
            up.add(Channel.spsc(4));
        }
        AtomicLong neighbourSteps = new AtomicLong();
        List<Worker> strips = new ArrayList<>();
        Farm<Object, Object> farm = Farm.empty();
        for (int i = 0; i < workers; i++) {
            Worker w = new Worker(i, map.slice(firstRows[i], firstRows[i + 1]),
                    i > 0 ? up.get(i - 1) : null, i > 0 ? down.get(i - 1) : null,
                    i + 1 < workers ? down.get(i) : null, i + 1 < workers ? up.get(i) : null, neighbourSteps);
            strips.add(w);
            farm.addWorker(w);
        }
        farm.emitter(new Emitter(o, firstRows)).collector(new Collector(workers)).feedbackFromCollector();

        int[] winners = new int[samples.size()];
        AtomicLong learnt = new AtomicLong();
        Pipeline<Void, Void> flow = Pipeline.of(
                Nodes.fromIterable(samples),
                farm,
                Nodes.sink((Integer winner) -> {
                    winners[(int) learnt.get()] = winner;
                    learnt.lazySet(learnt.get() + 1);
                }));
        long cpu0 = Machine.processCpuNanos();
        long t0 = System.nanoTime();
        Flow running = Flow.start(flow);
        RunStats stats;
        try (ProgressLine p = o.progress ? ProgressLine.start(out, "som " + workers + "w", running, learnt::get, "samples") : null) {
            stats = running.join();
        }
        long wall = System.nanoTime() - t0;
        SomStrip trained = SomStrip.join(strips.stream().map(w -> w.strip).toArray(SomStrip[]::new));
        return new Trained(trained.weights(), winners, wall / 1e9,
                Machine.coresUsed(cpu0, Machine.processCpuNanos(), wall), neighbourSteps.get(), stats);
    }

    // ---- the program ------------------------------------------------------------------------------

    /**
     * The outcome: the sequential training and one parallel training per farm width.
     */
    public record Result(Trained sequential, List<Trained> parallel) {
        /** Whether every parallel map and winner list equals the sequential one. */
        public boolean allEqual() {
            return parallel.stream().allMatch(p -> Arrays.equals(p.weights(), sequential.weights())
                    && Arrays.equals(p.winners(), sequential.winners()));
        }
    }

    /** Trains sequentially and with 1 .. {@code workers} strips, silently. */
    public static Result run(Options o) {
        return run(o, Output.silent());
    }

    /** Trains sequentially and with 1 .. {@code workers} strips. */
    public static Result run(Options o, Output out) {
        o.validated();
        List<double[]> samples = samples(o);
        Trained seq = trainSequential(o, samples);
        List<Trained> par = new ArrayList<>();
        for (int w = 1; w <= o.workers; w++) {
            par.add(trainParallel(o, samples, w, out));
        }
        return new Result(seq, par);
    }

    /**
     * The {@code som} subcommand: trains sequentially and in parallel and prints the comparison.
     *
     * @param o the options
     * @param out where to print
     * @return 0 if every parallel map equals the sequential one, else 1
     */
    public static int main(Options o, Output out) {
        out.println(String.format(Locale.ROOT, "Self-organizing map %d x %d, %d weights per neuron, %,d samples,"
                + " radius %d, seed %d", o.rows, o.cols, o.dims, o.samples, o.radius, o.seed));
        Result r = run(o, out);
        out.println(String.format(Locale.ROOT, "%-12s %9s %10s %8s %10s %10s %16s  %s", "run", "time s", "samples/s",
                "speedup", "efficiency", "cores used", "neighbour steps", "same map and winners"));
        double seq = r.sequential().seconds();
        out.println(String.format(Locale.ROOT, "%-12s %9.3f %,10.0f %8.2f %10s %10.2f %16s  %s", "sequential", seq,
                o.samples / seq, 1.0, "-", r.sequential().coresUsed(), "-", "reference"));
        for (int i = 0; i < r.parallel().size(); i++) {
            Trained p = r.parallel().get(i);
            int w = i + 1;
            boolean same = Arrays.equals(p.weights(), r.sequential().weights())
                    && Arrays.equals(p.winners(), r.sequential().winners());
            out.println(String.format(Locale.ROOT, "%-12s %9.3f %,10.0f %8.2f %10.2f %10.2f %,16d  %s", "farm " + w + "w",
                    p.seconds(), o.samples / p.seconds(), seq / p.seconds(), seq / p.seconds() / w, p.coresUsed(),
                    p.neighbourSteps(), same ? "yes (bit for bit)" : "NO"));
        }
        Trained widest = r.parallel().get(r.parallel().size() - 1);
        out.println("");
        out.println("per-node statistics, farm of " + r.parallel().size() + " strips:");
        for (String line : widest.stats().table().split("\n")) {
            out.println(line);
        }
        Machine.warnIfBusy(out);
        if (!r.allEqual()) {
            out.println("ERROR: a parallel map differs from the sequential map");
            return 1;
        }
        return 0;
    }
}
