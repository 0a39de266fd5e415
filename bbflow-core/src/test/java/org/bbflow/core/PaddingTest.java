package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The hot fields that threads poll or write on their own are padded by at least 128 bytes of
 * padding fields on each side (two cache lines: the adjacent-line prefetcher pairs them), in the
 * layout the running JVM really uses.
 */
class PaddingTest {
    private static final int PAD = 128;

    @Test
    void waiterParkedSlotIsPadded() {
        assertPadded(Waiter.class, "parked");
    }

    @Test
    void cancelFlagIsPadded() {
        assertPadded(CancelFlag.class, "raised");
    }

    /**
     * A runner's per-item writes (its counters and the current item's context) share no cache line
     * with another field of the runner or with a neighbouring object: a flow allocates runners,
     * outboxes and dispatchers together, and a consumer's counter next to its producer's outbox cost
     * both threads a miss per item.
     */
    @Test
    void runnerPerItemFieldsArePadded() {
        ClassLayout layout = ClassLayout.parseClass(NodeRunner.class);
        String shown = layout.toPrintable();
        Set<String> hot = Set.of("itemsIn", "itemsOut", "inputIndex", "fromFeedback");
        long start = Long.MAX_VALUE;
        long end = 0;
        for (FieldLayout f : layout.fields()) {
            if (hot.contains(f.name())) {
                start = Math.min(start, f.offset());
                end = Math.max(end, f.offset() + f.size());
            }
        }
        assertTrue(end > 0, shown);
        for (FieldLayout f : layout.fields()) {
            boolean near = f.offset() + f.size() > start - PAD && f.offset() < end + PAD;
            if (near && !hot.contains(f.name())) {
                assertTrue(f.name().startsWith("p") && (f.hostClass().contains("NodeRunnerPad") || f.hostClass().contains("NodeRunnerHotFields")),
                        f.name() + " within " + PAD + " bytes of the per-item fields:\n" + shown);
            }
        }
        assertTrue(start - layout.headerSize() >= PAD, "per-item fields at offset " + start + ":\n" + shown);
        assertTrue(layout.instanceSize() - end >= PAD, "per-item fields end at " + end + ":\n" + shown);
    }

    /**
     * A public MPSC channel's queue: the producer index (CAS by every offer), the producer limit
     * (read by every offer, written once per capacity's worth), the consumer index (written by every
     * poll) and the read-only buffer and mask each have at least 128 bytes of nothing but padding on
     * either side, and the first and last group are that far from the object's ends.
     */
    @Test
    void closableMpscQueueIndicesArePadded() {
        ClassLayout layout = ClassLayout.parseClass(ClosableMpscQueue.class);
        String shown = layout.toPrintable();
        List<Set<String>> groups = List.of(Set.of("buffer", "mask"), Set.of("producerIndex"), Set.of("producerLimit"),
                Set.of("consumerIndex"));
        Set<String> real = new java.util.HashSet<>();
        groups.forEach(real::addAll);
        for (FieldLayout f : layout.fields()) {
            assertTrue(real.contains(f.name()) || f.name().startsWith("p") && f.hostClass().contains("ClosableMpscQueuePad"),
                    f.name() + " is neither a queue field nor padding:\n" + shown);
        }
        for (Set<String> group : groups) {
            long start = Long.MAX_VALUE;
            long end = 0;
            for (FieldLayout f : layout.fields()) {
                if (group.contains(f.name())) {
                    start = Math.min(start, f.offset());
                    end = Math.max(end, f.offset() + f.size());
                }
            }
            assertTrue(end > 0, group + " not found:\n" + shown);
            for (FieldLayout f : layout.fields()) {
                boolean near = f.offset() + f.size() > start - PAD && f.offset() < end + PAD;
                if (near && !group.contains(f.name())) {
                    assertTrue(!real.contains(f.name()), f.name() + " within " + PAD + " bytes of " + group + ":\n" + shown);
                }
            }
            assertTrue(start - layout.headerSize() >= PAD, group + " at offset " + start + ":\n" + shown);
            assertTrue(layout.instanceSize() - end >= PAD, group + " ends at " + end + ":\n" + shown);
        }
    }

    private static void assertPadded(Class<?> type, String hot) {
        ClassLayout layout = ClassLayout.parseClass(type);
        String shown = layout.toPrintable();
        FieldLayout field = null;
        for (FieldLayout f : layout.fields()) {
            if (f.name().equals(hot)) {
                field = f;
            }
        }
        assertTrue(field != null, shown);
        long start = field.offset();
        long end = start + field.size();
        long before = 0;
        long after = 0;
        for (FieldLayout f : layout.fields()) {
            if (f == field) {
                continue;
            }
            assertTrue(f.name().startsWith("p"), "only padding may share the object with " + hot + ":\n" + shown);
            if (f.offset() < start) {
                before += f.size();
            } else {
                after += f.size();
            }
        }
        assertTrue(before >= PAD, hot + " has " + before + " bytes of padding before it:\n" + shown);
        assertTrue(after >= PAD, hot + " has " + after + " bytes of padding after it:\n" + shown);
        // and the padding really surrounds it: nothing but the header before the first padding
        assertTrue(start - layout.headerSize() >= PAD, hot + " at offset " + start + ":\n" + shown);
        assertTrue(layout.instanceSize() - end >= PAD, hot + " ends at " + end + ":\n" + shown);
        assertEquals(1, layout.fields().stream().filter(f -> f.name().equals(hot)).count());
    }
}
