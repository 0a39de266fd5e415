package org.bbflow.net.dist;

import io.netty.buffer.ByteBuf;
import org.bbflow.net.Codec;

/** The frames of {@link Routed} items: three ints, then the item's own encoding. */
final class RoutedCodec implements Codec<Object> {
    private static final int HEADER = 3 * Integer.BYTES;

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
        items.encode(r.item(), out);
    }

    @Override
    public Object decode(ByteBuf in) {
        int port = in.readInt();
        int inputs = in.readInt();
        int outputs = in.readInt();
        if (port < Routed.BROADCAST || inputs < 0 || outputs < 0) {
            throw new IllegalArgumentException("not a routed frame: port " + port + ", " + inputs + " inputs, "
                    + outputs + " outputs");
        }
        return new Routed(port, inputs, outputs, items.decode(in));
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
