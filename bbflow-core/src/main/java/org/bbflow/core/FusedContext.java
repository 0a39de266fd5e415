package org.bbflow.core;

/**
 * The context of a node fused after another ({@link Comb}'s second node) inside a feedback loop: the
 * comb's own context, except that {@link #hasPendingInput()} is always false.
 *
 * <p>Why: a node may keep items past {@code onItem} only while an item waits on its input, because
 * that item keeps the loop open until it reaches the node and the node sends what it kept. An item
 * waiting on a comb's input reaches its first node, which may drop it (a filter) or answer it from
 * its own state, and then the second node is never called again: the loop ends with the second
 * node's items kept, and its {@code onEos} may not send them back (a fed-back item after the loop
 * ended fails the flow). So the second node of a comb in a loop keeps nothing: told that no input
 * waits, it sends on at once (as inside an ordered farm's worker). Outside loops a comb's second
 * node sees the comb's context unchanged: what it keeps leaves by its {@code onEos} at the latest,
 * and {@code a.andThen(LongNodes.batch())} keeps batching.
 */
final class FusedContext implements NodeContext {
    private final NodeContext context;

    FusedContext(NodeContext context) {
        this.context = context;
    }

    /** Whether a node with this context runs inside a feedback loop (a fused context is made only there). */
    static boolean inLoop(NodeContext context) {
        return context instanceof FusedContext || context instanceof NodeRunner && ((NodeRunner) context).loop != null;
    }

    @Override
    public String name() {
        return context.name();
    }

    @Override
    public String path() {
        return context.path();
    }

    @Override
    public int workerIndex() {
        return context.workerIndex();
    }

    @Override
    public int inputIndex() {
        return context.inputIndex();
    }

    @Override
    public int inputCount() {
        return context.inputCount();
    }

    @Override
    public boolean fromFeedback() {
        return context.fromFeedback();
    }

    @Override
    public boolean isCancelled() {
        return context.isCancelled();
    }

    @Override
    public boolean flowFailed() {
        return context.flowFailed();
    }

    @Override
    public Throwable flowFailure() {
        return context.flowFailure();
    }

    @Override
    public boolean hasPendingInput() {
        return false;
    }
}
