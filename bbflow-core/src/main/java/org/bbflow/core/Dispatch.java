package org.bbflow.core;

import java.util.Objects;
import java.util.function.Function;

/**
 * How a multi-output node (a farm's emitter, an all-to-all's left members) picks the output of
 * {@link Outbox#send} (FastFlow's scheduling policies). {@link Outbox#sendTo} and
 * {@link Outbox#broadcast} are always available besides.
 */
public final class Dispatch {
    enum Kind { ROUND_ROBIN, ON_DEMAND, BROADCAST, SCATTER, BY_KEY }

    private static final Dispatch ROUND_ROBIN = new Dispatch(Kind.ROUND_ROBIN, null);
    private static final Dispatch ON_DEMAND = new Dispatch(Kind.ON_DEMAND, null);
    private static final Dispatch BROADCAST = new Dispatch(Kind.BROADCAST, null);
    private static final Dispatch SCATTER = new Dispatch(Kind.SCATTER, null);

    final Kind kind;
    final Function<Object, ?> key;

    private Dispatch(Kind kind, Function<Object, ?> key) {
        this.kind = kind;
        this.key = key;
    }

    /**
     * One item per output in turn (the default).
     *
     * @return the policy
     */
    public static Dispatch roundRobin() {
        return ROUND_ROBIN;
    }

    /**
     * To the least-loaded output: the first empty channel from the last choice on, else the shortest.
     *
     * @return the policy
     */
    public static Dispatch onDemand() {
        return ON_DEMAND;
    }

    /**
     * The same item (the same reference) to every output.
     *
     * @return the policy
     */
    public static Dispatch broadcast() {
        return BROADCAST;
    }

    /**
     * Splits each item, a {@code Collection} or an object array, into one {@code List} chunk per
     * output, in order; the first {@code size % n} chunks get one element more. Outputs beyond the
     * size get an empty list; a single output gets the whole collection as one list.
     *
     * @return the policy
     */
    public static Dispatch scatter() {
        return SCATTER;
    }

    /**
     * Items with equal keys ({@code equals}/{@code hashCode}) always go to the same output.
     *
     * @param <T> item type
     * @param key the key of an item; equal keys go to the same output
     * @return the policy
     */
    @SuppressWarnings("unchecked")
    public static <T> Dispatch byKey(Function<? super T, ?> key) {
        Objects.requireNonNull(key, "key");
        return new Dispatch(Kind.BY_KEY, (Function<Object, ?>) key);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase().replace('_', '-');
    }
}
