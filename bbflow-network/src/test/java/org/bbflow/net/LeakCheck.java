package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty's leak detector reports a buffer that was garbage collected without
 * being released. Registered for every test class of this module (META-INF/services and
 * junit-platform.properties); surefire runs with {@code -Dio.netty.leakDetection.level=paranoid}.
 * Netty logs through java.util.logging here (no SLF4J on the test class path), so a handler on the
 * detector's logger captures each "LEAK:" report.
 */
public final class LeakCheck implements BeforeAllCallback, AfterAllCallback {
    private static final List<String> LEAKS = new ArrayList<>();
    private static Logger detectorLog; // strong reference: java.util.logging holds loggers weakly

    static synchronized void install() {
        if (detectorLog != null) return;
        detectorLog = Logger.getLogger("io.netty.util.ResourceLeakDetector");
        detectorLog.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                String m = r.getMessage();
                if (m != null && m.contains("LEAK:")) {
                    synchronized (LEAKS) {
                        LEAKS.add(m);
                    }
                }
            }

            @Override
            public void flush() { }

            @Override
            public void close() { }
        });
    }

    /**
     * Collects garbage until leaked buffers are reported (the detector reports when a new buffer is
     * tracked), then throws if any leak was reported since the last check.
     */
    static void assertNoLeaks() {
        install();
        for (int round = 0; round < 5; round++) {
            System.gc();
            try {
                Thread.sleep(20); // let the reference handler enqueue what the collection found
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            for (int i = 0; i < 4; i++) { // tracking a new buffer makes the detector poll its queue
                ByteBuf a = PooledByteBufAllocator.DEFAULT.directBuffer(16);
                ByteBuf b = UnpooledByteBufAllocator.DEFAULT.heapBuffer(16);
                a.release();
                b.release();
            }
        }
        List<String> found;
        synchronized (LEAKS) {
            found = new ArrayList<>(LEAKS);
            LEAKS.clear();
        }
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + " leaked Netty buffer(s):\n" + String.join("\n\n", found));
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        assertNoLeaks();
    }
}
