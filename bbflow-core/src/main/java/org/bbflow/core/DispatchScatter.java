package org.bbflow.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** Splits a collection or an object array into one list chunk per output, in order. */
final class DispatchScatter extends Dispatcher {
    /** This policy for the outbox {@code out} (made here, not in {@link Dispatcher#of}: see there). */
    static Dispatcher create(OutboxImpl out) {
        return new DispatchScatter(out);
    }

    DispatchScatter(OutboxImpl out) {
        super(out);
    }

    @Override
    void send(Object item) {
        List<?> list;
        if (item instanceof List) {
            list = (List<?>) item;
        } else if (item instanceof Collection) {
            list = new ArrayList<>((Collection<?>) item);
        } else if (item instanceof Object[]) {
            list = Arrays.asList((Object[]) item);
        } else {
            throw new IllegalArgumentException("node " + out.path() + " scatters, but the item is not a Collection or"
                    + " an object array: " + item.getClass().getName());
        }
        int size = list.size();
        int base = size / n;
        int extra = size % n;
        int from = 0;
        for (int i = 0; i < n; i++) {
            int len = base + (i < extra ? 1 : 0);
            out.put(i, new ArrayList<>(list.subList(from, from + len)));
            from += len;
        }
    }
}
