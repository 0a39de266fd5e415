package org.bbflow.core;

/**
 * The unit protocol of ordered farms, in one place. A unit is the output of one input item: 0, 1
 * or several items. Between an ordered farm's emitter and collector every node (a worker, or each
 * stage of a pipeline worker) keeps unit boundaries: a unit of one item travels as the plain item
 * (no marker, the common case costs nothing), a unit of none as {@link #SKIP}, a unit of several
 * between {@link #START} and {@link #END}. The emitter sends strictly round-robin, so the collector
 * restores input order by reading one unit from each worker in turn ({@link #collect}). Strict
 * (round-robin, gather) collectors use the same markers to notice a worker that sent none or
 * several results for an item ({@link #oneResult}).
 *
 * <p>An instance is the output side of one such node: as its {@link Dispatcher} it holds back the
 * first item of a unit until it knows whether a second follows. Used only by the node's thread.
 */
final class Units extends Dispatcher {
    /** A unit with no item. */
    static final Object SKIP = new Marker("SKIP");
    /** Starts a unit of several items. */
    static final Object START = new Marker("START");
    /** Ends a unit of several items. */
    static final Object END = new Marker("END");
    /** Returned by a strict read when the channel reached end of stream. */
    static final Object EOS = new Marker("EOS");
    /**
     * Behind a strict collector: the items that follow come from an onEos, outside any unit (a node
     * sends it before its first such item, once), so that the next node of a pipeline worker passes
     * them on as they are instead of making a unit of each (a dropped one would read as a SKIP).
     */
    static final Object TAIL = new Marker("TAIL");

    // output side: items sent in the open unit (-1: no unit open), the first one held back
    private int count = -1;
    private Object pending;
    /** {@link #TAIL} was sent. */
    private boolean tailSent;
    // input side: inside a unit of several items; past the upstream's TAIL
    private boolean inGroup;
    private boolean tail;

    /** This protocol as its outbox's dispatcher (typed so here, not in {@link OutboxImpl}: see {@link Dispatcher#of}). */
    Dispatcher asDispatcher() {
        return this;
    }

    Units(OutboxImpl out) {
        super(out);
    }

    // ---- output side: a node inside an ordered farm ---------------------------------------------

    /** Opens the unit of one input item (or of onEos). */
    void open() {
        count = 0;
    }

    /** Closes the open unit: sends SKIP, the held-back item, or END. */
    void close() {
        if (count == 0) {
            out.offer(0, SKIP);
        } else if (count == 1) {
            Object p = pending;
            pending = null;
            out.put(0, p);
        } else if (count > 1) {
            out.offer(0, END);
        }
        count = -1;
    }

    /**
     * One item of the open unit; outside any unit (onEos behind a strict collector) a plain item,
     * after {@link #TAIL}.
     */
    @Override
    void send(Object item) {
        if (count < 0) {
            if (!tailSent) {
                tailSent = true;
                out.offer(0, TAIL);
            }
            out.put(0, item);
            return;
        }
        if (count == 0) {
            pending = item;
        } else if (count == 1) {
            out.offer(0, START);
            Object p = pending;
            pending = null;
            out.put(0, p);
            out.put(0, item);
        } else {
            out.put(0, item);
        }
        count++;
    }

    // ---- input side: a node inside an ordered farm ----------------------------------------------

    /**
     * Hands x, read by a node that carries units, to the node of r so that unit boundaries are kept
     * from input to output: one input item is one output unit; the items of one input unit make one.
     */
    void deliver(Object x, NodeRunner r) throws Exception {
        if (x == SKIP) {
            open();
            close();
        } else if (x == START) {
            inGroup = true;
            open();
        } else if (x == END) {
            inGroup = false;
            close();
        } else if (x == TAIL) {
            tail = true; // what follows is the upstream node's onEos output: no units, and none made here
        } else {
            r.countIn(1);
            Node<Object, Object> node = r.node();
            if (inGroup || tail) {
                node.onItem(x, out);
            } else {
                open();
                node.onItem(x, out);
                close();
            }
        }
    }

    // ---- the collector ----------------------------------------------------------------------------

    /**
     * An ordered collector read {@code first} from input w: delivers the whole unit it begins (reading
     * the rest of it from w), in order.
     */
    static void collect(NodeRunner r, int w, Object first) throws Exception {
        if (first == START) {
            r.consumed(w);
            Object x;
            while ((x = r.take(w)) != END) {
                if (x == EOS) {
                    throw new IllegalStateException("worker " + w + " ended in the middle of a unit");
                }
                r.deliver(w, x);
            }
            r.consumed(w);
        } else if (first == SKIP) {
            r.consumed(w); // a marker, counted in flight like an item inside a loop
        } else {
            r.deliver(w, first);
        }
    }

    /**
     * What a strict (round-robin or gather) collector reads next from worker w: a result, an onEos
     * item, or {@link #EOS}; the {@link #TAIL} before a worker's onEos items is consumed here.
     */
    static Object takeResult(NodeRunner r, int w) {
        Object x = r.take(w);
        if (x == TAIL) {
            r.consumed(w); // a marker, counted in flight like an item inside a loop
            x = r.take(w);
        }
        return x;
    }

    /**
     * A strict (round-robin or gather) collector needs exactly one result per item from every
     * worker; a worker that carries units tells when it sent none (SKIP) or several (START).
     *
     * @return x, when it is one result
     */
    static Object oneResult(NodePlan collector, int w, Object x) {
        if (x == SKIP || x == START) {
            throw new IllegalStateException("collector policy " + collector.collect + " needs exactly one result per item"
                    + " from every worker, but " + collector.inputs[w].fromPath + " sent "
                    + (x == SKIP ? "none" : "several") + " for an item; use Collect.ORDERED (input order, any number"
                    + " of results per item) or Collect.FIRST_COME");
        }
        return x;
    }

    /**
     * Whether x, the head of a collector's input (or null), is an item that will reach the collector's
     * node, and not a marker of this protocol, which the collector consumes itself.
     */
    static boolean isItem(Object x) {
        return x != null && !(x instanceof Marker);
    }

    private static final class Marker {
        private final String name;

        Marker(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
