package org.bbflow.examples.testbench;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Flow;
import org.bbflow.core.Node;
import org.bbflow.core.NodeContext;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.RunStats;
import org.bbflow.core.Source;
import org.bbflow.examples.Latencies;
import org.bbflow.examples.Output;
import org.bbflow.examples.ProgressLine;
import org.bbflow.examples.ScratchDirectory;

/**
 * The data flow of an automotive test bench (after the lock-free queue thesis): simulated sensors
 * sample at fixed rates into one processing node, which calibrates and smooths every sample and
 * broadcasts it to a file recorder (written in batches) and a live monitor.
 *
 * <pre>
 *   sensor 0 ─┐                         ┌─> recorder (batched file writes)
 *   sensor 1 ─┼─> processing (N inputs) ┤
 *   ...      ─┘                         └─> monitor  (counts, order, latency)
 * </pre>
 *
 * In BBFlow terms: an {@link AllToAll} whose left members are the sensor sources and whose single
 * right member is the processing node (it learns the sensor from {@link NodeContext#inputIndex()}),
 * then a farm without emitter or collector whose two "workers" are the recorder and the monitor,
 * fed by the processing node's broadcast. Bounded channels slow the sensors down rather than drop
 * samples, so nothing is lost; SPSC channels keep each sensor's order, which the processing node,
 * the monitor and a read-back of the file all check.
 */
public final class TestBench {
    private TestBench() {
    }

    /** Bytes per sample in the recording: sensor, sequence, timestamp, raw value, processed value. */
    public static final int RECORD_BYTES = 4 + 8 + 8 + 8 + 8;
    /**
     * The most samples per file write: the recorder's one direct buffer holds a batch, at most 1 GiB
     * ({@code --batch 2000000000} overflowed its size to a negative capacity, reported only once running).
     */
    public static final int MAX_BATCH = (1 << 30) / RECORD_BYTES;

    /**
     * The bench.
     *
     * @param sensors number of sensor sources
     * @param rate samples per second of each sensor
     * @param samplesPerSensor samples each sensor produces
     * @param batch samples per file write
     * @param output the recording file, or null for a temporary file deleted after checking
     * @param progress whether to print progress lines
     */
    public record Options(int sensors, long rate, long samplesPerSensor, int batch, Path output, boolean progress) {
        /** Defaults: 8 sensors at 125,000 samples/s each (1,000,000 samples/s) for 4 seconds. */
        public static Options defaults() {
            return new Options(8, 125_000, 500_000, 4096, null, true);
        }

        /**
         * Checks the options.
         *
         * @return these options
         * @throws IllegalArgumentException if a count or rate is below 1
         */
        public Options validated() {
            if (sensors < 1 || rate < 1 || samplesPerSensor < 1 || batch < 1) {
                throw new IllegalArgumentException("--sensors, --rate, --samples and --batch must be >= 1");
            }
            if (batch > MAX_BATCH) {
                throw new IllegalArgumentException("--batch must be at most " + MAX_BATCH + " (a 1 GiB buffer), got " + batch);
            }
            return this;
        }
    }

    /**
     * One reading of one sensor, stamped with the time it was due by the sensor's schedule (not the
     * time it was sent: a sensor held up by a full channel would otherwise hide the hold-up from
     * the latencies, the "coordinated omission" of load generators).
     */
    public record Sample(int sensor, long sequence, long takenNanos, double raw) {
    }

    /** A sample after processing: calibrated and smoothed. */
    public record Measurement(int sensor, long sequence, long takenNanos, double raw, double value) {
    }

    /** The simulated signal of a sensor: a slow sine with a sensor-specific offset and some ripple. */
    static double signal(int sensor, long sequence) {
        return 10 * sensor + Math.sin(sequence * 1e-3) + 0.01 * ((sequence * 2654435761L) % 101 - 50);
    }

    /**
     * A sensor sampling at a fixed rate: it sends every sample that is due, then naps until the next
     * tick. Sample {@code n} is due {@code n / rate} seconds after the start and is stamped with that
     * time, so a stall of the sensor (backpressure, a pause) shows in the measured latencies.
     */
    static final class Sensor implements Source<Sample> {
        private static final long TICK_NANOS = 200_000;
        private final int id;
        private final long rate;
        private final long samples;

        Sensor(int id, long rate, long samples) {
            this.id = id;
            this.rate = rate;
            this.samples = samples;
        }

        @Override
        public void generate(Outbox<Sample> out) {
            long start = System.nanoTime();
            long seq = 0;
            while (seq < samples) {
                long elapsed = System.nanoTime() - start;
                long due = Math.min(samples, (long) (elapsed / 1e9 * rate) + 1);
                while (seq < due) {
                    out.send(new Sample(id, seq, dueNanos(start, seq), signal(id, seq)));
                    seq++;
                }
                if (seq < samples) {
                    LockSupport.parkNanos(TICK_NANOS); // pacing only: how many are due is computed from the clock
                }
            }
        }

        /** When sample {@code seq} is due: {@code start + seq / rate} seconds. */
        long dueNanos(long start, long seq) {
            return start + seq / rate * 1_000_000_000L + seq % rate * 1_000_000_000L / rate;
        }

        @Override
        public String name() {
            return "sensor";
        }
    }

    /** Calibrates (gain, offset) and smooths (exponential moving average) each sensor's samples. */
    static final class Processing implements Node<Sample, Measurement> {
        private final int sensors;
        private NodeContext context;
        private long[] next;
        private double[] smoothed;
        long orderErrors;

        Processing(int sensors) {
            this.sensors = sensors;
        }

        @Override
        public void init(NodeContext context) {
            this.context = context;
            next = new long[sensors];
            smoothed = new double[sensors];
        }

        @Override
        public void onItem(Sample s, Outbox<Measurement> out) {
            int input = context.inputIndex();
            if (input != s.sensor() || s.sequence() != next[input]) {
                orderErrors++;
            }
            next[input] = s.sequence() + 1;
            double calibrated = 1.02 * s.raw() - 0.5;
            double v = s.sequence() == 0 ? calibrated : smoothed[input] + 0.1 * (calibrated - smoothed[input]);
            smoothed[input] = v;
            out.broadcast(new Measurement(s.sensor(), s.sequence(), s.takenNanos(), s.raw(), v));
        }

        @Override
        public String name() {
            return "processing";
        }
    }

    /** Writes measurements to a file in batches of fixed-size records. */
    static final class Recorder implements Node<Measurement, Void> {
        private final Path file;
        private final ByteBuffer batch;
        private FileChannel channel;
        long records;

        Recorder(Path file, int batchSamples) {
            this.file = file;
            this.batch = ByteBuffer.allocateDirect(batchSamples * RECORD_BYTES);
        }

        @Override
        public void init(NodeContext context) throws IOException {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        }

        @Override
        public void onItem(Measurement m, Outbox<Void> out) throws IOException {
            batch.putInt(m.sensor()).putLong(m.sequence()).putLong(m.takenNanos()).putDouble(m.raw())
                    .putDouble(m.value());
            records++;
            if (!batch.hasRemaining()) {
                writeBatch();
            }
        }

        @Override
        public void onEos(Outbox<Void> out) throws IOException {
            writeBatch();
            channel.force(false);
        }

        private void writeBatch() throws IOException {
            batch.flip();
            while (batch.hasRemaining()) {
                channel.write(batch);
            }
            batch.clear();
        }

        @Override
        public void close() throws IOException {
            if (channel != null) {
                channel.close();
            }
        }

        @Override
        public String name() {
            return "recorder";
        }
    }

    /** Counts samples per sensor, checks their order and records the latency from each sample's due time. */
    static final class Monitor implements Node<Measurement, Void> {
        private final long[] next;
        final long[] received;
        private final Latencies latencies;
        private final AtomicLong seen;
        long orderErrors;

        Monitor(int sensors, AtomicLong seen) {
            this.next = new long[sensors];
            this.received = new long[sensors];
            this.latencies = new Latencies();
            this.seen = seen;
        }

        @Override
        public void onItem(Measurement m, Outbox<Void> out) {
            latencies.record(System.nanoTime() - m.takenNanos());
            if (m.sequence() != next[m.sensor()]) {
                orderErrors++;
            }
            next[m.sensor()] = m.sequence() + 1;
            received[m.sensor()]++;
            seen.lazySet(seen.get() + 1);
        }

        @Override
        public String name() {
            return "monitor";
        }
    }

    /**
     * The outcome.
     *
     * @param expected samples the sensors produced in all
     * @param perSensorAtMonitor samples that reached the monitor, per sensor
     * @param orderErrors samples out of per-sensor order at the processing node and the monitor
     * @param recorded records written to the file
     * @param fileInOrder whether the file read back has, per sensor, sequences 0, 1, 2, ... complete
     * @param seconds wall time of the flow
     * @param latencies end-to-end latencies, from the time each sample was due at its sensor to its
     *        arrival at the monitor
     * @param stats the flow's per-node statistics
     */
    public record Result(long expected, long[] perSensorAtMonitor, long orderErrors, long recorded, boolean fileInOrder,
                         double seconds, Latencies latencies, RunStats stats) {
        /** Samples per second through the bench. */
        public double samplesPerSecond() {
            return expected / seconds;
        }

        /** Whether every sample of every sensor arrived, in order, at the monitor and in the file. */
        public boolean lossless() {
            return Arrays.stream(perSensorAtMonitor).allMatch(n -> n == expected / perSensorAtMonitor.length)
                    && orderErrors == 0 && recorded == expected && fileInOrder;
        }
    }

    /** Runs the bench silently. */
    public static Result run(Options o) throws IOException {
        return run(o, Output.silent());
    }

    /** Runs the bench. */
    public static Result run(Options o, Output log) throws IOException {
        o.validated();
        try (ScratchDirectory scratch = ScratchDirectory.create("bbflow-testbench")) {
            Path file = o.output != null ? o.output : scratch.path().resolve("recording.rec");
            List<Block<?, ?>> sensors = new ArrayList<>();
            for (int i = 0; i < o.sensors; i++) {
                sensors.add(new Sensor(i, o.rate, o.samplesPerSensor));
            }
            Processing processing = new Processing(o.sensors);
            Recorder recorder = new Recorder(file, o.batch);
            AtomicLong seen = new AtomicLong();
            Monitor monitor = new Monitor(o.sensors, seen);
            List<Block<?, ?>> right = new ArrayList<>();
            right.add(processing); // (a mutable list: AllToAll.of checks for nulls with contains())
            Pipeline<Void, Void> bench = Pipeline.of(
                    AllToAll.<Void, Measurement>of(sensors, right).named("acquisition"),
                    Farm.<Measurement, Void>of(List.of(recorder, monitor)).withoutEmitter().withoutCollector()
                            .named("outputs"));
            long t0 = System.nanoTime();
            Flow running = Flow.start(bench);
            RunStats stats;
            try (ProgressLine p = o.progress ? ProgressLine.start(log, "testbench", running, seen::get, "samples")
                    : null) {
                stats = running.join();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long[] perSensor = monitor.received.clone();
            long expected = o.sensors * o.samplesPerSensor;
            boolean fileOk = fileHasEverySampleInOrder(file, o.sensors, o.samplesPerSensor);
            return new Result(expected, perSensor, processing.orderErrors + monitor.orderErrors, recorder.records,
                    fileOk, seconds, monitor.latencies, stats);
        }
    }

    /** Reads the recording back: every sensor's sequences must be 0, 1, 2, ... with none missing. */
    static boolean fileHasEverySampleInOrder(Path file, int sensors, long samplesPerSensor) throws IOException {
        long[] next = new long[sensors];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (true) {
                int sensor;
                try {
                    sensor = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                long seq = in.readLong();
                in.skipNBytes(RECORD_BYTES - 12);
                if (sensor < 0 || sensor >= sensors || seq != next[sensor]) {
                    return false;
                }
                next[sensor]++;
            }
        }
        return Arrays.stream(next).allMatch(n -> n == samplesPerSensor);
    }

    /**
     * The {@code testbench} subcommand: runs the bench and prints what it measured.
     *
     * @param o the options
     * @param out where to print
     * @return 0 if no sample was lost or reordered, else 1
     * @throws IOException if the recording cannot be written or read back
     */
    public static int main(Options o, Output out) throws IOException {
        out.println(String.format(Locale.ROOT, "Test bench: %d sensors x %,d samples/s = %,d samples/s offered,"
                        + " %,d samples each, recorder batches of %,d", o.sensors, o.rate, o.sensors * o.rate,
                o.samplesPerSensor, o.batch));
        Result r = run(o, out);
        out.println(String.format(Locale.ROOT, "samples: %,d in %.3f s = %,.0f samples/s", r.expected(), r.seconds(),
                r.samplesPerSecond()));
        out.println("per sensor at the monitor: " + Arrays.toString(r.perSensorAtMonitor()));
        out.println(String.format(Locale.ROOT, "recorded %,d samples (%,d bytes); file read back complete and in order:"
                + " %s", r.recorded(), r.recorded() * RECORD_BYTES, r.fileInOrder() ? "yes" : "NO"));
        out.println("order errors: " + r.orderErrors() + "   lost: " + (r.expected()
                - Arrays.stream(r.perSensorAtMonitor()).sum()));
        out.println("latency from the time a sample was due to the monitor: " + r.latencies().summary());
        out.println("");
        out.println("per-node statistics (a sensor's naps between ticks count as busy time):");
        for (String line : r.stats().table().split("\n")) {
            out.println(line);
        }
        return r.lossless() ? 0 : 1;
    }
}
