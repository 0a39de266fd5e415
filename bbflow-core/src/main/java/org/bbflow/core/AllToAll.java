package org.bbflow.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Two sets of workers with every left member connected to every right member (FastFlow's
 * {@code ff_a2a}): no central emitter or collector to become a bottleneck. Members are any blocks.
 * Each left member's {@link Outbox#send} picks a right member by the {@link Dispatch} policy
 * (round-robin by default; by key; broadcast); {@link Outbox#sendTo} picks one explicitly. A right
 * member learns which left member an item came from with {@link NodeContext#inputIndex()}.
 *
 * <p>The block's input ports are the left members', its output ports the right members'.
 *
 * @param <I> input type of the left members
 * @param <O> output type of the right members
 */
public final class AllToAll<I, O> extends Composite<I, O> {
    private final List<Block<?, ?>> left;
    private final List<Block<?, ?>> right;
    private Dispatch dispatch = Dispatch.roundRobin();
    private ChannelSpec spec;

    private AllToAll(List<? extends Block<?, ?>> left, List<? extends Block<?, ?>> right) {
        super("a2a");
        this.left = new ArrayList<>(left);
        this.right = new ArrayList<>(right);
    }

    /**
     * An all-to-all of the given members.
     *
     * @param <I> input item type of the left members
     * @param <O> output item type of the right members
     * @param left the left members
     * @param right the right members
     * @return the all-to-all
     */
    public static <I, O> AllToAll<I, O> of(List<? extends Block<?, ?>> left, List<? extends Block<?, ?>> right) {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
        if (left.isEmpty() || right.isEmpty()) {
            throw new IllegalArgumentException("an all-to-all needs at least one member on each side, got "
                    + left.size() + " left and " + right.size() + " right");
        }
        for (Block<?, ?> b : left) {
            Objects.requireNonNull(b, "null left member in an all-to-all");
        }
        for (Block<?, ?> b : right) {
            Objects.requireNonNull(b, "null right member in an all-to-all");
        }
        return new AllToAll<>(left, right);
    }

    /**
     * An all-to-all of {@code nLeft} members from one factory and {@code nRight} from another.
     *
     * @param <I> input item type of the left members
     * @param <O> output item type of the right members
     * @param nLeft how many left members
     * @param left makes each left member (called {@code nLeft} times)
     * @param nRight how many right members
     * @param right makes each right member (called {@code nRight} times)
     * @return the all-to-all
     */
    public static <I, O> AllToAll<I, O> of(int nLeft, Supplier<? extends Block<? super I, ?>> left,
                                           int nRight, Supplier<? extends Block<?, ? extends O>> right) {
        if (nLeft < 1 || nRight < 1) {
            throw new IllegalArgumentException("an all-to-all needs at least one member on each side, got "
                    + nLeft + " left and " + nRight + " right");
        }
        List<Block<?, ?>> l = new ArrayList<>();
        for (int i = 0; i < nLeft; i++) {
            l.add(Objects.requireNonNull(left.get(), "left factory returned null"));
        }
        List<Block<?, ?>> r = new ArrayList<>();
        for (int i = 0; i < nRight; i++) {
            r.add(Objects.requireNonNull(right.get(), "right factory returned null"));
        }
        return new AllToAll<>(l, r);
    }

    /**
     * How left members' {@code send} picks a right member.
     *
     * @param policy the dispatch policy
     * @return this all-to-all
     */
    public AllToAll<I, O> dispatch(Dispatch policy) {
        checkModifiable();
        this.dispatch = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * The channels from left to right (the flow's default otherwise).
     *
     * @param channels the channels' settings
     * @return this all-to-all
     */
    public AllToAll<I, O> channels(ChannelSpec channels) {
        checkModifiable();
        this.spec = Objects.requireNonNull(channels, "channels");
        return this;
    }

    /**
     * Sets the name used in paths and thread names (default {@code a2a}).
     *
     * @param name the new name
     * @return this all-to-all
     */
    public AllToAll<I, O> named(String name) {
        rename(name);
        return this;
    }

    /**
     * The left members.
     *
     * @return the left members (unmodifiable)
     */
    public List<Block<?, ?>> left() {
        return Collections.unmodifiableList(left);
    }

    /**
     * The right members.
     *
     * @return the right members (unmodifiable)
     */
    public List<Block<?, ?>> right() {
        return Collections.unmodifiableList(right);
    }

    @Override
    Ports compile(GraphBuilder g, String path, int workerIndex) {
        List<Vertex> entries = new ArrayList<>();
        List<Vertex> leftExits = new ArrayList<>();
        for (int i = 0; i < left.size(); i++) {
            Ports p = g.compile(left.get(i), path + "/left-" + i, i);
            entries.addAll(p.entries);
            leftExits.addAll(p.exits);
        }
        List<Vertex> rightEntries = new ArrayList<>();
        List<Vertex> exits = new ArrayList<>();
        for (int j = 0; j < right.size(); j++) {
            Ports p = g.compile(right.get(j), path + "/right-" + j, j);
            if (p.entries.isEmpty()) {
                throw new IllegalStateException("all-to-all '" + name() + "' (" + path + "): right member " + j
                        + " takes no input (is it a source?)");
            }
            rightEntries.addAll(p.entries);
            exits.addAll(p.exits);
        }
        for (Vertex x : leftExits) {
            x.dispatch = dispatch;
            for (Vertex y : rightEntries) {
                g.connect(x, y, spec, false);
            }
        }
        return new Ports(entries, exits);
    }
}
