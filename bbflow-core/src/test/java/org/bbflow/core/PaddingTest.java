package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
