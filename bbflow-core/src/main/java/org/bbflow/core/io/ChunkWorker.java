package org.bbflow.core.io;

import java.util.Queue;
import org.bbflow.core.Node;
import org.bbflow.core.Outbox;

/** Runs a {@link ChunkProcessor} as a flow node and hands its result over at end of stream. */
final class ChunkWorker<A> implements Node<Chunk, Chunk> {
    private final ChunkProcessor<A> processor;
    private final Queue<A> results;

    ChunkWorker(ChunkProcessor<A> processor, Queue<A> results) {
        this.processor = processor;
        this.results = results;
    }

    @Override
    public void onItem(Chunk chunk, Outbox<Chunk> out) throws Exception {
        try {
            processor.process(chunk);
        } catch (Exception | Error e) {
            chunk.release();
            throw e;
        }
        out.send(chunk);
    }

    @Override
    public void onEos(Outbox<Chunk> out) {
        A r = processor.result();
        if (r != null) {
            results.add(r);
        }
    }

    @Override
    public String name() {
        return "chunk-worker";
    }
}
