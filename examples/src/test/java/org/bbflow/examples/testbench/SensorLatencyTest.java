package org.bbflow.examples.testbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.bbflow.core.Outbox;
import org.bbflow.examples.Latencies;
import org.bbflow.examples.testbench.TestBench.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coordinated omission: a sensor held up in {@code send} (a full channel, a pause) must not hide the
 * hold-up from the latencies. Samples are stamped with the time they were due, so every sample that
 * fell due during the stall shows how late it was.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SensorLatencyTest {
    private static final long RATE = 20_000;
    private static final long SAMPLES = 4_000; // 0.2 s at the rate
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(60);

    /** An outbox that measures each sample's latency on arrival and stalls the sender once, at sample 1000. */
    private static final class StallingOutbox implements Outbox<Sample> {
        final Latencies latencies = new Latencies();
        long next;

        @Override
        public void send(Sample s) {
            assertEquals(next++, s.sequence());
            if (s.sequence() == 1_000) {
                long until = System.nanoTime() + STALL_NANOS;
                for (long left; (left = until - System.nanoTime()) > 0; ) { // bounded: ends at `until`
                    LockSupport.parkNanos(left);
                }
            }
            latencies.record(System.nanoTime() - s.takenNanos());
        }

        @Override
        public void sendTo(int output, Sample item) {
            send(item);
        }

        @Override
        public void broadcast(Sample item) {
            send(item);
        }

        @Override
        public int outputCount() {
            return 1;
        }
    }

    @Test
    void aStalledSensorShowsInTheHighPercentiles() {
        StallingOutbox out = new StallingOutbox();
        new TestBench.Sensor(0, RATE, SAMPLES).generate(out);
        Latencies l = out.latencies;
        System.out.println("stalled sensor: " + l.summary());
        assertEquals(SAMPLES, l.count());
        // 60 ms at 20,000/s: 1,200 samples fall due during the stall, 600 of them (15 %) at least 30 ms
        // before the sensor can send them. Stamped when sent, all but one would look fast.
        assertTrue(l.percentile(90) >= TimeUnit.MILLISECONDS.toNanos(30), l.summary());
        assertTrue(l.max() >= STALL_NANOS, l.summary());
    }

    @Test
    void samplesAreStampedOnTheSchedule() {
        TestBench.Sensor sensor = new TestBench.Sensor(3, 3, 10);
        assertEquals(1_000L, sensor.dueNanos(1_000, 0));
        assertEquals(1_000L + 333_333_333L, sensor.dueNanos(1_000, 1));
        assertEquals(1_000L + 3_000_000_000L, sensor.dueNanos(1_000, 9));
    }
}
