package org.bbflow.net.dist;

import io.netty.buffer.ByteBuf;
import org.bbflow.net.Codec;

/** The frames of {@link Routed} items: three ints and a flags byte, then the item's own encoding. */
final class RoutedCodec implements Codec<Object> {
    private static final int HEADER = 3 * Integer.BYTES + 1;
    private static final int FED_BACK = 1;

    private final Codec<Object> items;

    RoutedCodec(Codec<Object> items) {
        this.items = items;
    }

    @Override
    public void encode(Object routed, ByteBuf out) {
        Routed r = (Routed) routed;
        out.writeInt(r.port());
        out.writeInt(r.inputs());
        out.writeInt(r.outputs());
        out.writeByte(r.fromFeedback() ? FED_BACK : 0);
        items.encode(r.item(), out);
    }

    @Override
    public Object decode(ByteBuf in) {
        int port = in.readInt();
        int inputs = in.readInt();
        int outputs = in.readInt();
        byte flags = in.readByte();
        if (port < Routed.BROADCAST || inputs < 0 || outputs < 0 || (flags & ~FED_BACK) != 0) {
            throw new IllegalArgumentException("not a routed frame: port " + port + ", " + inputs + " inputs, "
                    + outputs + " outputs, flags " + flags);
        }
        return new Routed(port, inputs, outputs, flags == FED_BACK, items.decode(in));
    }

    @Override
    public int maxEncodedSize(Object routed) {
        int n = items.maxEncodedSize(((Routed) routed).item());
        return n < 0 ? -1 : n + HEADER;
    }

    @Override
    public int fixedSize() {
        int n = items.fixedSize();
        return n < 0 ? -1 : n + HEADER;
    }
}
