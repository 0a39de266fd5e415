package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Java serialization codec: sizes bounded by the item, JDK containers usable when allowed. */
class SerializationCodecTest {

    record Holder(List<String> names) implements Serializable {}

    /** An item of a few dozen bytes claiming a {@code long[]} of {@code claimed} elements (the elements are missing). */
    private static ByteBuf forgedArrayItem(int claimed) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bytes)) {
            oos.writeObject(new long[] {42});
        }
        byte[] b = bytes.toByteArray();
        // the stream ends with the array length (4 bytes) and its one element (8 bytes)
        ByteBuffer.wrap(b, b.length - 12, 4).putInt(claimed);
        int n = b.length - 8;
        return Unpooled.buffer().writeInt(n).writeBytes(b, 0, n);
    }

    private static boolean rejectedByFilter(Throwable t) {
        for (; t != null; t = t.getCause()) {
            if (t instanceof InvalidClassException && String.valueOf(t.getMessage()).contains("REJECTED")) return true;
        }
        return false;
    }

    @Test
    void forgedArrayLengthIsRefusedBeforeAllocating() throws Exception {
        Codec<Serializable> allowList = Codec.javaSerialization(String.class);
        ByteBuf item = forgedArrayItem(10_000_000);
        assertTrue(item.readableBytes() < 64, item.readableBytes() + " bytes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> allowList.decode(item));
        assertTrue(rejectedByFilter(e), () -> "refused by the filter, not by running out of input after allocating: " + e);
        // also under a caller's own, permissive filter
        Codec<Serializable> permissive = Codec.javaSerialization(ObjectInputFilter.Config.createFilter("*"));
        ByteBuf again = forgedArrayItem(1000);
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class, () -> permissive.decode(again));
        assertTrue(rejectedByFilter(e2), () -> "bounded whatever the filter: " + e2);
    }

    @Test
    void honestArraysStillDecode() {
        Codec<Serializable> codec = Codec.javaSerialization(String.class);
        for (Serializable x : new Serializable[] {new long[100_000], new String[] {"a", "b"}, new int[0], new byte[3]}) {
            ByteBuf buf = Unpooled.buffer();
            codec.encode(x, buf);
            Object back = codec.decode(buf);
            assertEquals(x.getClass(), back.getClass());
            assertFalse(buf.isReadable());
        }
    }

    private static <T extends Serializable> T roundTrip(Codec<T> codec, T item) {
        ByteBuf buf = Unpooled.buffer();
        codec.encode(item, buf);
        T back = codec.decode(buf);
        assertFalse(buf.isReadable());
        return back;
    }

    @Test
    void allowedJdkContainersAreUsable() {
        ArrayList<String> list = new ArrayList<>(List.of("a", "b", "c"));
        assertEquals(list, roundTrip(Codec.<ArrayList<String>>javaSerialization(ArrayList.class), list));
        HashMap<String, Long> map = new HashMap<>(Map.of("x", 1L, "y", 2L));
        assertEquals(map, roundTrip(Codec.<HashMap<String, Long>>javaSerialization(HashMap.class), map));
        HashSet<Integer> set = new HashSet<>(List.of(1, 2, 3));
        assertEquals(set, roundTrip(Codec.<HashSet<Integer>>javaSerialization(HashSet.class), set));
        ArrayDeque<String> deque = new ArrayDeque<>(List.of("p", "q"));
        assertEquals(List.copyOf(deque), List.copyOf(roundTrip(Codec.<ArrayDeque<String>>javaSerialization(ArrayDeque.class), deque)));
        Holder h = new Holder(new ArrayList<>(List.of("n")));
        assertEquals(h, roundTrip(Codec.<Holder>javaSerialization(Holder.class, ArrayList.class), h));
    }

    @Test
    void containerElementsAreStillChecked() {
        record Secret(int x) implements Serializable {}
        ArrayList<Object> list = new ArrayList<>(Arrays.asList("ok", new Secret(1)));
        Codec<ArrayList<Object>> codec = Codec.javaSerialization(ArrayList.class);
        ByteBuf buf = Unpooled.buffer();
        codec.encode(list, buf);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.decode(buf));
        assertTrue(rejectedByFilter(e), e::toString);
        // and Object[] alone is not allowed when no container is
        Codec<Object[]> plain = Codec.javaSerialization(String.class);
        ByteBuf arr = Unpooled.buffer();
        plain.encode(new Object[] {"a"}, arr);
        assertThrows(IllegalArgumentException.class, () -> plain.decode(arr));
    }

    @Test
    void deepNestingIsRefused() {
        ArrayList<Object> root = new ArrayList<>();
        ArrayList<Object> at = root;
        for (int i = 0; i < 200; i++) {
            ArrayList<Object> next = new ArrayList<>();
            at.add(next);
            at = next;
        }
        Codec<ArrayList<Object>> codec = Codec.javaSerialization(ArrayList.class);
        ByteBuf buf = Unpooled.buffer();
        codec.encode(root, buf);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.decode(buf));
        assertTrue(rejectedByFilter(e), e::toString);
    }
}
