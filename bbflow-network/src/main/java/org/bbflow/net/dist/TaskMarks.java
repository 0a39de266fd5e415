package org.bbflow.net.dist;

import io.netty.buffer.ByteBuf;
import org.bbflow.net.Codec;

/**
 * The result channel of a farm that survives a lost worker: each frame is a result (tag 0, then the
 * result's own encoding) or the end-of-task mark {@link #TASK_DONE} (tag 1), which the group sends
 * after each task's results.
 */
final class TaskMarks implements Codec<Object> {
    /** The end of one task's results. */
    static final Object TASK_DONE = new Object() {
        @Override
        public String toString() {
            return "TASK_DONE";
        }
    };

    private static final byte RESULT = 0;
    private static final byte DONE = 1;

    private final Codec<Object> results;

    TaskMarks(Codec<Object> results) {
        this.results = results;
    }

    @Override
    public void encode(Object item, ByteBuf out) {
        if (item == TASK_DONE) {
            out.writeByte(DONE);
        } else {
            out.writeByte(RESULT);
            results.encode(item, out);
        }
    }

    @Override
    public Object decode(ByteBuf in) {
        byte tag = in.readByte();
        if (tag == DONE) {
            return TASK_DONE;
        }
        if (tag != RESULT) {
            throw new IllegalArgumentException("not a result frame: tag " + tag);
        }
        return results.decode(in);
    }

    @Override
    public int maxEncodedSize(Object item) {
        if (item == TASK_DONE) {
            return 1;
        }
        int n = results.maxEncodedSize(item);
        return n < 0 ? -1 : n + 1;
    }
}
