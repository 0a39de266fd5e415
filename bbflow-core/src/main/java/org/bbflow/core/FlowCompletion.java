package org.bbflow.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The future of {@link Flow#completion()} and of every stage that depends on it: a wait on it
 * ({@code join}, {@code get}) from one of the flow's own node threads, while it is not done, is an
 * {@link IllegalStateException} instead of a wait that never ends (the flow completes it only after
 * that very thread has ended), as {@link Flow#join()} is.
 *
 * <p>Stages made from it inherit the check through {@link #newIncompleteFuture()}, which is how
 * {@code CompletableFuture} lets a subclass shape its dependents. A stage that can complete without
 * the flow is exempt: the "either" forms, {@code orTimeout}, {@code completeOnTimeout} and
 * {@code completeAsync} (a node may wait for those). Stages the JDK makes outside this class
 * ({@code CompletableFuture.allOf}/{@code anyOf}, {@code minimalCompletionStage()}'s copies) are
 * not checked.
 */
final class FlowCompletion<T> extends CompletableFuture<T> {
    private final Flow flow;
    /** False once this stage can complete without the flow; read by a waiting thread. */
    private volatile boolean bound;

    FlowCompletion(Flow flow, boolean bound) {
        this.flow = flow;
        this.bound = bound;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new FlowCompletion<>(flow, bound);
    }

    @Override
    public T join() {
        refuseOwnNode("completion().join()");
        return super.join();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        refuseOwnNode("completion().get()");
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        refuseOwnNode("completion().get(timeout)");
        return super.get(timeout, unit);
    }

    private void refuseOwnNode(String call) {
        if (bound && !isDone()) {
            flow.refuseOwnNode(call);
        }
    }

    /** Marks a stage made by a method whose result may complete without the flow. */
    private static <U> CompletableFuture<U> unbound(CompletableFuture<U> stage) {
        if (stage instanceof FlowCompletion) {
            ((FlowCompletion<U>) stage).bound = false;
        }
        return stage;
    }

    @Override
    public CompletableFuture<T> orTimeout(long timeout, TimeUnit unit) {
        bound = false;
        return super.orTimeout(timeout, unit);
    }

    @Override
    public CompletableFuture<T> completeOnTimeout(T value, long timeout, TimeUnit unit) {
        bound = false;
        return super.completeOnTimeout(value, timeout, unit);
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier) {
        bound = false;
        return super.completeAsync(supplier);
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        bound = false;
        return super.completeAsync(supplier, executor);
    }

    @Override
    public <U> CompletableFuture<U> applyToEither(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return unbound(super.applyToEither(other, fn));
    }

    @Override
    public <U> CompletableFuture<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn) {
        return unbound(super.applyToEitherAsync(other, fn));
    }

    @Override
    public <U> CompletableFuture<U> applyToEitherAsync(CompletionStage<? extends T> other, Function<? super T, U> fn,
            Executor executor) {
        return unbound(super.applyToEitherAsync(other, fn, executor));
    }

    @Override
    public CompletableFuture<Void> acceptEither(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return unbound(super.acceptEither(other, action));
    }

    @Override
    public CompletableFuture<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action) {
        return unbound(super.acceptEitherAsync(other, action));
    }

    @Override
    public CompletableFuture<Void> acceptEitherAsync(CompletionStage<? extends T> other, Consumer<? super T> action,
            Executor executor) {
        return unbound(super.acceptEitherAsync(other, action, executor));
    }

    @Override
    public CompletableFuture<Void> runAfterEither(CompletionStage<?> other, Runnable action) {
        return unbound(super.runAfterEither(other, action));
    }

    @Override
    public CompletableFuture<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action) {
        return unbound(super.runAfterEitherAsync(other, action));
    }

    @Override
    public CompletableFuture<Void> runAfterEitherAsync(CompletionStage<?> other, Runnable action, Executor executor) {
        return unbound(super.runAfterEitherAsync(other, action, executor));
    }
}
