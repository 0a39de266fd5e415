package org.bbflow.core;

/**
 * A node without input that generates a stream: {@link #generate} is called once after
 * {@link #init}; when it returns, {@link #onEos} is called and end of stream is sent.
 *
 * <p>A source that is the head of a feedback loop ({@link Pipeline#feedback()}, or the emitter of a
 * {@link Farm#feedback()} farm) receives the items fed back through {@link #onFeedback} after
 * {@code generate} has returned (meanwhile they wait in the loop's unbounded feedback channel); the
 * loop ends when nothing is left in it. Other sources never receive
 * items.
 *
 * @param <O> output item type
 */
public interface Source<O> extends Node<Void, O> {

    /**
     * Sends the stream. Returns when the stream is complete.
     *
     * @param out where the stream goes
     * @throws Exception to fail the flow
     */
    void generate(Outbox<O> out) throws Exception;

    /**
     * Receives an item fed back to this source by the loop it heads. By default refuses it, so a loop
     * whose items come back to a source that does not override this is refused at start (an
     * {@link IllegalStateException} from {@link Flow#start}); the default is reached only by hand.
     *
     * @param item the item, typed as the loop's last stage produces it (usually {@code O})
     * @param out where items go
     * @throws Exception to fail the flow (the default throws {@link IllegalStateException})
     */
    default void onFeedback(O item, Outbox<O> out) throws Exception {
        throw new IllegalStateException("source '" + name() + "' heads a feedback loop but does not override onFeedback");
    }

    /** Sources take no input: never called by the runtime. */
    @Override
    default void onItem(Void item, Outbox<O> out) throws Exception {
        throw new IllegalStateException("source '" + name() + "' received an item but takes no input");
    }
}
