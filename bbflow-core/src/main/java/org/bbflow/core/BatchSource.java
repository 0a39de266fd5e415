package org.bbflow.core;

/** A source among the {@link BatchStage}s: it sends batches of {@code type} it made, and receives none. */
abstract class BatchSource<B> extends BatchStage<Void, B> implements Source<B> {
    BatchSource(String name, Class<B> type) {
        super(name, null, type);
    }
}
