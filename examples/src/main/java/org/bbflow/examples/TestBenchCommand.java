package org.bbflow.examples;

import java.io.IOException;
import java.nio.file.Path;
import org.bbflow.examples.testbench.TestBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code testbench}: the automotive test bench's data flow. */
@Command(name = "testbench", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Sensors at fixed rates -> processing -> file recorder and monitor, no loss.",
            "N sensor sources at fixed rates -> one processing node (N inputs) -> broadcast to a batched file"
                + " recorder and a monitor. Checks no loss and per-sensor order (also in the file read back) and"
                + " prints throughput and latency percentiles, measured from the time each sample was due."})
final class TestBenchCommand extends Subcommand {
    private static final TestBench.Options D = TestBench.Options.defaults();
    /** The highest --rate: one sample a nanosecond, the resolution of the sensors' due times. */
    static final long MAX_RATE = 1_000_000_000L;

    @Option(names = "--sensors", paramLabel = "N", description = "sensor sources (default ${DEFAULT-VALUE})")
    int sensors = D.sensors();

    @Option(names = "--rate", paramLabel = "SAMPLES_PER_S", description = "samples/s of each sensor, at most 1e9 (default ${DEFAULT-VALUE})")
    long rate = D.rate();

    @Option(names = "--seconds", paramLabel = "S", converter = Converters.Seconds.class,
            description = "run time at the rate, at most 365 days (default ${DEFAULT-VALUE})")
    double seconds = (double) D.samplesPerSensor() / D.rate();

    @Option(names = "--samples", paramLabel = "PER_SENSOR", description = "samples per sensor, instead of --seconds (not with it)")
    Long samples;

    @Option(names = "--batch", paramLabel = "N", description = "samples per file write (default ${DEFAULT-VALUE})")
    int batch = D.batch();

    @Option(names = "--output", paramLabel = "FILE", description = "keep the recording here (default: a temporary file)")
    Path output;

    @Option(names = "--no-progress", description = "no progress lines")
    boolean noProgress;

    @Override
    public Integer call() throws IOException {
        // each sensor is a member of the acquisition all-to-all, a thread of its own: 100,000 failed only once
        // the run had started, "left members must be in [1, 4096]"
        within("--sensors", sensors, 1, org.bbflow.core.Parallelism.MAX);
        // Due times are whole nanoseconds (TestBench.Sensor.dueNanos): past one sample a nanosecond samples share
        // due times, and above ~9.2e9 the due time's seq % rate * 1e9 passes a long's range (as did the
        // header's sensors x rate): 9e18 ran, printed "-1,786,976,294,838,206,464 samples/s offered" and
        // latencies from wrong due times, status 0. So at most 1e9 a sensor (4.1e12 for 4,096 sensors).
        within("--rate", rate, 1, MAX_RATE);
        within("--batch", batch, 1, org.bbflow.examples.testbench.TestBench.MAX_BATCH);
        long perSensor;
        if (samples != null) {
            // --samples replaces --seconds; given both, one of them would be ignored without a word
            if (spec.commandLine().getParseResult().hasMatchedOption("--seconds")) {
                throw usage("give --samples or --seconds, not both (--samples " + samples + ", --seconds " + seconds
                        + ")");
            }
            atLeast("--samples", samples, 1);
            perSensor = samples;
        } else {
            // Converters.Seconds bounds the time to 365 days and --rate is at most 1e9, so the count is at most
            // 3.2e16, well within a long (before the rate's bound, 1e12 a second for 365 days passed it)
            perSensor = Math.max(1, (long) Math.rint(rate * seconds));
        }
        if (perSensor > Long.MAX_VALUE / sensors) {
            throw usage("--samples " + perSensor + " for each of --sensors " + sensors + " make more samples than a"
                    + " count holds (" + Long.MAX_VALUE + ")");
        }
        // the sensors sample at the rate: the run lasts samples / rate seconds, bounded as --seconds is
        if ((double) perSensor / rate > Converters.MAX_TIME.getSeconds()) {
            throw usage("--samples " + perSensor + " at --rate " + rate + " would run " + (perSensor / rate)
                    + " s, more than 365 days (" + Converters.MAX_TIME.getSeconds() + " s)");
        }
        if (output != null) { // a directory, or a missing directory, failed only at the recorder's first write
            outputFile("--output", output, null, null);
        }
        // every sample is recorded, RECORD_BYTES each, into --output or a temporary file
        fitsOnDisk("--sensors " + sensors + " x " + perSensor + " samples (the recording, " + TestBench.RECORD_BYTES
                + " bytes a sample)", (double) sensors * perSensor * TestBench.RECORD_BYTES,
                output != null ? output.toAbsolutePath().getParent() : null);
        return TestBench.main(new TestBench.Options(sensors, rate, perSensor, batch, output, !noProgress), out);
    }
}
