package org.bbflow.net;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Map;

/** Encodes a record component by component, each with a built-in codec, in declaration order. */
final class RecordCodec<R extends Record> implements Codec<R> {
    private static final Map<Class<?>, Codec<?>> KINDS = Map.ofEntries(
            Map.entry(long.class, BuiltinCodecs.LONG), Map.entry(Long.class, BuiltinCodecs.LONG),
            Map.entry(int.class, BuiltinCodecs.INT), Map.entry(Integer.class, BuiltinCodecs.INT),
            Map.entry(double.class, BuiltinCodecs.DOUBLE), Map.entry(Double.class, BuiltinCodecs.DOUBLE),
            Map.entry(boolean.class, BooleanCodec.INSTANCE), Map.entry(Boolean.class, BooleanCodec.INSTANCE),
            Map.entry(String.class, BuiltinCodecs.STRING), Map.entry(byte[].class, BuiltinCodecs.BYTES),
            Map.entry(long[].class, BuiltinCodecs.LONG_ARRAY), Map.entry(int[].class, BuiltinCodecs.INT_ARRAY),
            Map.entry(double[].class, BuiltinCodecs.DOUBLE_ARRAY));

    private final Class<R> type;
    private final MethodHandle[] accessors;
    private final Codec<Object>[] codecs;
    private final MethodHandle constructor;
    private final int fixedSize;

    @SuppressWarnings("unchecked")
    private RecordCodec(Class<R> type) {
        this.type = type;
        RecordComponent[] rc = type.getRecordComponents();
        accessors = new MethodHandle[rc.length];
        codecs = new Codec[rc.length];
        Class<?>[] params = new Class<?>[rc.length];
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        int fixed = 0;
        try {
            for (int i = 0; i < rc.length; i++) {
                Class<?> t = rc[i].getType();
                Codec<?> c = KINDS.get(t);
                if (c == null && t.isRecord()) c = of(t.asSubclass(Record.class));
                if (c == null) {
                    throw new IllegalArgumentException("record " + type.getName() + " component '" + rc[i].getName()
                            + "' has type " + t.getName() + ", which has no built-in codec");
                }
                codecs[i] = (Codec<Object>) c;
                fixed = (fixed < 0 || c.fixedSize() < 0) ? -1 : fixed + c.fixedSize();
                rc[i].getAccessor().setAccessible(true);
                accessors[i] = lookup.unreflect(rc[i].getAccessor()).asType(MethodType.methodType(Object.class, Object.class));
                params[i] = t;
            }
            var ctor = type.getDeclaredConstructor(params);
            ctor.setAccessible(true);
            constructor = lookup.unreflectConstructor(ctor).asSpreader(Object[].class, rc.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) throw iae;
            throw new IllegalArgumentException("cannot build a codec for record " + type.getName() + ": " + e, e);
        }
        fixedSize = fixed;
    }

    static <R extends Record> RecordCodec<R> of(Class<R> type) {
        if (!type.isRecord()) throw new IllegalArgumentException(type.getName() + " is not a record");
        return new RecordCodec<>(type);
    }

    private Object get(int i, R item) {
        try {
            Object v = accessors[i].invokeExact((Object) item);
            if (v == null) throw new NullPointerException("record " + type.getName() + " component " + i + " is null");
            return v;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public void encode(R item, ByteBuf out) {
        for (int i = 0; i < codecs.length; i++) codecs[i].encode(get(i, item), out);
    }

    @Override
    public R decode(ByteBuf in) {
        Object[] args = new Object[codecs.length];
        for (int i = 0; i < args.length; i++) args[i] = codecs[i].decode(in);
        try {
            return type.cast((Object) constructor.invokeExact(args));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalArgumentException("record " + type.getName() + " rejected decoded values: " + t, t);
        }
    }

    @Override
    public int maxEncodedSize(R item) {
        int total = 0;
        for (int i = 0; i < codecs.length; i++) {
            int m = codecs[i].maxEncodedSize(get(i, item));
            if (m < 0) return -1;
            total += m;
        }
        return total;
    }

    @Override
    public int fixedSize() {
        return fixedSize;
    }

    @Override
    public String toString() {
        return "Codec.record(" + type.getSimpleName() + ")";
    }

    /** One byte, 0 or 1. */
    static final class BooleanCodec implements Codec<Boolean> {
        static final BooleanCodec INSTANCE = new BooleanCodec();
        @Override public void encode(Boolean item, ByteBuf out) { out.writeBoolean(item); }
        @Override public Boolean decode(ByteBuf in) { return in.readBoolean(); }
        @Override public int maxEncodedSize(Boolean item) { return 1; }
        @Override public int fixedSize() { return 1; }
    }
}
