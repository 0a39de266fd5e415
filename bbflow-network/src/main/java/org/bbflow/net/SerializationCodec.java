package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Java serialization behind an {@link ObjectInputFilter}; every item is its own length-prefixed object
 * stream. Whatever the filter, every decode is also bounded by the item's own size: no array longer
 * than the item's byte count, no more object references than that, nesting at most
 * {@value #MAX_DEPTH} deep. A legitimate array of {@code n} elements takes at least {@code n} bytes
 * on the wire, so this refuses only forged lengths, and what one item can make the receiver allocate
 * stays within a small multiple of the maximum frame size.
 */
final class SerializationCodec<T extends Serializable> implements Codec<T> {
    /** The deepest object nesting accepted. */
    static final int MAX_DEPTH = 64;

    private final ObjectInputFilter filter;

    SerializationCodec(ObjectInputFilter filter) {
        this.filter = filter;
    }

    /**
     * Allows exactly {@code allowed}, the primitive wrappers and {@link String}, and arrays of those or
     * of primitives. If an allowed class is a {@link Collection} or a {@link Map}, the
     * {@code Object[]} and {@code Map.Entry[]} arrays the JDK's containers allocate while reading
     * themselves are allowed too (their elements are still checked one by one).
     */
    static ObjectInputFilter allowList(Class<?>... allowed) {
        Set<Class<?>> set = Stream.concat(Stream.of(allowed),
                        Stream.of(String.class, Long.class, Integer.class, Double.class, Float.class,
                                Short.class, Byte.class, Character.class, Boolean.class, Number.class))
                .collect(Collectors.toUnmodifiableSet());
        boolean containers = set.stream().anyMatch(c -> Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c));
        return info -> {
            Class<?> c = info.serialClass();
            if (c == null) return ObjectInputFilter.Status.UNDECIDED;
            while (c.isArray()) {
                c = c.getComponentType();
                if (containers && (c == Object.class || c == Map.Entry.class)) return ObjectInputFilter.Status.ALLOWED;
            }
            if (c.isPrimitive() || set.contains(c)) return ObjectInputFilter.Status.ALLOWED;
            return ObjectInputFilter.Status.REJECTED;
        };
    }

    /** The filter for one item of {@code itemBytes} bytes: the size bounds, then the codec's filter. */
    private ObjectInputFilter bounded(int itemBytes) {
        return info -> {
            if (info.depth() > MAX_DEPTH || info.references() > itemBytes || info.arrayLength() > itemBytes) {
                return ObjectInputFilter.Status.REJECTED;
            }
            return filter.checkInput(info);
        };
    }

    @Override
    public void encode(T item, ByteBuf out) {
        int at = out.writerIndex();
        out.writeInt(0);
        try (ObjectOutputStream oos = new ObjectOutputStream(new ByteBufOutputStream(out))) {
            oos.writeObject(item);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize " + item.getClass().getName(), e);
        }
        out.setInt(at, out.writerIndex() - at - 4);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T decode(ByteBuf in) {
        int n = BuiltinCodecs.length(in, 1);
        try (ObjectInputStream ois = new ObjectInputStream(new ByteBufInputStream(in.readSlice(n)))) {
            ois.setObjectInputFilter(bounded(n));
            return (T) ois.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalArgumentException("cannot deserialize item: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "Codec.javaSerialization(filtered)";
    }
}
