package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import org.bbflow.core.Nodes;
import org.bbflow.core.Pipeline;
import org.bbflow.net.Codec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frames of an all-to-all member in another group, and what such a member must be. */
class RoutedCodecTest {
    @SuppressWarnings("unchecked")
    private static final Codec<Object> CODEC = new RoutedCodec((Codec<Object>) (Codec<?>) Codec.longs());

    @Test
    void aFrameKeepsItsRoutingAndItsSizeIsKnown() {
        ByteBuf b = Unpooled.buffer();
        try {
            Routed r = new Routed(1, 2, 3, true, 42L);
            CODEC.encode(r, b);
            assertEquals(21, b.readableBytes());
            assertEquals(21, CODEC.maxEncodedSize(r));
            assertEquals(21, CODEC.fixedSize());
            assertEquals(r, CODEC.decode(b));
            assertEquals(0, b.readableBytes());
            CODEC.encode(new Routed(Routed.BROADCAST, 0, 0, false, 7L), b);
            assertEquals(new Routed(Routed.BROADCAST, 0, 0, false, 7L), CODEC.decode(b));
        } finally {
            b.release();
        }
    }

    @Test
    void aFrameWithAnImpossiblePortCountOrFlagIsRefused() {
        for (int[] bad : new int[][] {{-3, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 0}, {Integer.MIN_VALUE, 1, 1, 0},
                                      {0, 1, 1, 2}, {0, 1, 1, -1}}) {
            ByteBuf b = Unpooled.buffer().writeInt(bad[0]).writeInt(bad[1]).writeInt(bad[2]).writeByte(bad[3])
                    .writeLong(1L);
            try {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CODEC.decode(b));
                assertTrue(e.getMessage().startsWith("not a routed frame"), e::getMessage);
            } finally {
                b.release();
            }
        }
    }

    @Test
    void aMemberInAnotherGroupMustBeANode(@TempDir Path dir) throws Exception {
        JobSpec spec = DistributedJobTest.job(dir.resolve("secret"));
        DistributedJob w1 = DistributedJob.of(spec, "w1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w1.members("p",
                () -> Pipeline.of(Nodes.<Long>identity(), Nodes.<Long>identity()), Codec.longs(), Codec.longs(),
                Placement.of("w1")));
        assertTrue(e.getMessage().contains("all-to-all member p#0 is a Pipeline, not a Node"), e::getMessage);
        // the master only holds a stand-in: nothing to check there
        assertEquals(1, DistributedJob.of(spec, "m").members("p", () -> Pipeline.of(Nodes.<Long>identity(),
                Nodes.<Long>identity()), Codec.longs(), Codec.longs(), Placement.of("w1")).size());
    }
}
