package org.bbflow.net;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Streams a server has received completely and whose inlet is gone, remembered for a while so that a
 * sender that missed the end-of-stream acknowledgement (its connection dropped just after EOS) can
 * re-attach and be acknowledged again instead of failing. Bounded: at most {@link #MAX_STREAMS}
 * entries, each kept for the longer of {@link #MIN_KEEP} and twice the peer timeout (a sender gives
 * up after one peer timeout). Event-loop confined.
 */
final class FinishedStreams {
    static final int MAX_STREAMS = 4096;
    static final Duration MIN_KEEP = Duration.ofMinutes(1);
    /** The "total" of a stream whose inlet its receiver closed before the end: it must not resume into a new inlet. */
    static final long CLOSED = -2;

    private record Key(int channel, long streamId) {}

    private record Entry(long total, long at) {}

    private final long keepNanos;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>();

    FinishedStreams(Duration peerTimeout) {
        this.keepNanos = Math.max(MIN_KEEP.toNanos(), 2 * peerTimeout.toNanos());
    }

    /** Records that {@code streamId} on {@code channel} ended after {@code total} items, all received (or {@link #CLOSED}). */
    void add(int channel, long streamId, long total) {
        long now = System.nanoTime();
        prune(now);
        Key k = new Key(channel, streamId);
        entries.remove(k);
        entries.put(k, new Entry(total, now));
        if (entries.size() > MAX_STREAMS) {
            Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
            it.next();
            it.remove();
        }
    }

    /** The item count of a remembered finished stream, {@link #CLOSED}, or -1 if this stream is not (or no longer) remembered. */
    long total(int channel, long streamId) {
        prune(System.nanoTime());
        Entry e = entries.get(new Key(channel, streamId));
        return e != null ? e.total : -1;
    }

    private void prune(long now) {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            if (now - it.next().at <= keepNanos) break;
            it.remove();
        }
    }
}
