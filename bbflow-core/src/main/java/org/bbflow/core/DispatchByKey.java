package org.bbflow.core;

import java.util.function.Function;

/** Items with equal keys to the same output: a spread hash of the key picks it. */
final class DispatchByKey extends Dispatcher {
    private final Function<Object, ?> key;

    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out, Function<Object, ?> key) {
        return new DispatchByKey(out, key);
    }

    DispatchByKey(OutboxImpl out, Function<Object, ?> key) {
        super(out);
        this.key = key;
    }

    @Override
    void send(Object item) {
        Object k = key.apply(item);
        int h = k == null ? 0 : k.hashCode();
        h ^= h >>> 16;
        out.put(Math.floorMod(h * 0x9E3779B9, n), item);
    }
}
