package org.bbflow.core;

/**
 * A node without input that generates a stream: {@link #generate} is called once after
 * {@link #init}; when it returns, {@link #onEos} is called and end of stream is sent.
 *
 * <p>A source that is the head of a feedback loop ({@link Pipeline#feedback()}) also receives the
 * items fed back through {@link #onItem}; other sources never receive items.
 *
 * @param <O> output item type
 */
public interface Source<O> extends Node<Void, O> {

    /** Sends the stream. Returns when the stream is complete. */
    void generate(Outbox<O> out) throws Exception;

    /** Receives items of a feedback loop this source heads; by default refuses them. */
    @Override
    default void onItem(Void item, Outbox<O> out) throws Exception {
        throw new IllegalStateException("source '" + name() + "' received an item but takes no input");
    }
}
