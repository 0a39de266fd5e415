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
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Java serialization behind an {@link ObjectInputFilter}; every item is its own length-prefixed object stream. */
final class SerializationCodec<T extends Serializable> implements Codec<T> {
    private final ObjectInputFilter filter;

    SerializationCodec(ObjectInputFilter filter) {
        this.filter = filter;
    }

    static ObjectInputFilter allowList(Class<?>... allowed) {
        Set<Class<?>> set = Stream.concat(Stream.of(allowed),
                        Stream.of(String.class, Long.class, Integer.class, Double.class, Float.class,
                                Short.class, Byte.class, Character.class, Boolean.class, Number.class))
                .collect(Collectors.toUnmodifiableSet());
        return info -> {
            Class<?> c = info.serialClass();
            if (info.depth() > 64 || info.references() > 1_000_000 || info.arrayLength() > 10_000_000) {
                return ObjectInputFilter.Status.REJECTED;
            }
            if (c == null) return ObjectInputFilter.Status.UNDECIDED;
            while (c.isArray()) c = c.getComponentType();
            if (c.isPrimitive() || set.contains(c)) return ObjectInputFilter.Status.ALLOWED;
            return ObjectInputFilter.Status.REJECTED;
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
            ois.setObjectInputFilter(filter);
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
