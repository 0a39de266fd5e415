package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node for the pending-input tests: keeps items while {@link NodeContext#hasPendingInput()} says an
 * item waits and sends each less one once none does; its {@code onEos} sends what is left, which
 * fails the flow if a feedback loop already ended. Optionally waits for a latch on its first item, so
 * that the items the test needs are queued before it reads.
 */
final class PendingInputKeeper {
    private PendingInputKeeper() {
    }

    /** The keeper; {@code ready}: a latch its first item waits for (at most 30 s), or null. */
    static Node<Long, Long> keeper(CountDownLatch ready) {
        return new Node<>() {
            final List<Long> kept = new ArrayList<>();
            NodeContext c;
            boolean first = ready != null;

            @Override
            public void init(NodeContext c) {
                this.c = c;
            }

            @Override
            public void onItem(Long x, Outbox<Long> o) throws Exception {
                if (first) {
                    first = false;
                    assertTrue(ready.await(30, TimeUnit.SECONDS));
                }
                kept.add(x);
                if (!c.hasPendingInput()) {
                    kept.forEach(k -> o.send(k - 1));
                    kept.clear();
                }
            }

            @Override
            public void onEos(Outbox<Long> o) {
                kept.forEach(k -> o.send(k - 1)); // fails the flow if anything was left: the loop ended
            }
        };
    }
}
