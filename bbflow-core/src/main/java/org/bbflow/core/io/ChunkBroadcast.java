package org.bbflow.core.io;

import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/**
 * Sends every chunk to all of this node's outputs (e.g. several {@link ChunkSink}s), adding one
 * reference per extra output so the buffer returns to the pool only after the last sink released it.
 */
public final class ChunkBroadcast implements Node<Chunk, Chunk> {
    @Override
    public void onItem(Chunk chunk, Outbox<Chunk> out) {
        int n = out.outputCount();
        if (n == 0) {
            chunk.release();
            return;
        }
        chunk.retain(n - 1);
        out.broadcast(chunk);
    }

    @Override
    public String name() {
        return "chunk-broadcast";
    }
}
