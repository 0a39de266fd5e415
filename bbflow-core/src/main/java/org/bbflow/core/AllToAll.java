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
 * <p>{@link #feedback()} (N x M) and {@link #feedbackPairwise()} (N x N, point to point) close the
 * all-to-all into a loop (FastFlow's {@code ff_a2a} with {@code wrap_around}): right members send
 * items back to a left member of their choice, which sees them with
 * {@link NodeContext#fromFeedback()}. The loop ends once every left member's input has ended and no
 * item is in flight between the two sides; feedback channels are unbounded, as in FastFlow.
 *
 * @param <I> input type of the left members
 * @param <O> output type of the right members
 */
public final class AllToAll<I, O> extends Composite<I, O> {
    private enum Feedback { NONE, ALL, PAIRWISE }

    private final List<Block<?, ?>> left;
    private final List<Block<?, ?>> right;
    private Dispatch dispatch = Dispatch.roundRobin();
    private ChannelSpec spec;
    private Feedback feedback = Feedback.NONE;

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
        Parallelism.check("left members", left.size());
        Parallelism.check("right members", right.size());
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
        Parallelism.check("nLeft", nLeft);
        Parallelism.check("nRight", nRight);
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
     * Right members may send items back to any left member (N x M feedback). A right member's outputs
     * {@code 0 .. L-1} lead back to left members {@code 0 .. L-1} (L left members), and its outputs
     * from {@code L} on lead forward, out of the all-to-all, to the next stage:
     * <ul>
     *   <li>{@code out.send(x)} returns {@code x} to the left member the item being processed came
     *       from ({@link NodeContext#inputIndex()}), so each left member gets back exactly what it
     *       sent;</li>
     *   <li>{@code out.sendTo(i, x)}, {@code i < L}, sends {@code x} back to left member {@code i};</li>
     *   <li>{@code out.sendTo(L, x)} sends {@code x} forward (to the next stage's first input port;
     *       {@code L + k} to its port {@code k} when it has several).</li>
     * </ul>
     * The loop ends once every left member's input has ended and no item is in flight inside it;
     * then left members run {@code onEos} and end, and right members end after them. An item sent
     * back from {@code onEos} fails the flow. Members on both sides must be nodes (or combs); left
     * members may be sources.
     *
     * @return this all-to-all
     */
    public AllToAll<I, O> feedback() {
        checkModifiable();
        this.feedback = Feedback.ALL;
        return this;
    }

    /**
     * Right member {@code j} may send items back to left member {@code j} only (N x N point-to-point
     * feedback; both sides need the same number of members). A right member's output 0 leads back:
     * {@code out.send(x)} (or {@code sendTo(0, x)}) returns {@code x} to left member {@code j}, and
     * {@code out.sendTo(1, x)} sends it forward to the next stage ({@code 1 + k} to its port
     * {@code k}). Termination and the rules for members are those of {@link #feedback()}.
     *
     * @return this all-to-all
     */
    public AllToAll<I, O> feedbackPairwise() {
        checkModifiable();
        this.feedback = Feedback.PAIRWISE;
        return this;
    }

    /**
     * Whether this all-to-all closes a feedback loop ({@link #feedback()} or {@link #feedbackPairwise()}).
     *
     * @return true if right members can send items back to left members
     */
    public boolean hasFeedback() {
        return feedback != Feedback.NONE;
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
        String where = "all-to-all '" + name() + "' (" + path + ")";
        if (feedback == Feedback.PAIRWISE && left.size() != right.size()) {
            throw new IllegalStateException(where + ": pairwise feedback needs as many left as right members, got "
                    + left.size() + " left and " + right.size() + " right; use feedback() for N x M");
        }
        if (feedback != Feedback.NONE && spec != null && spec.kind() == Channel.Kind.MPSC) {
            throw new IllegalStateException(where + ": feedback needs to know which left member an item came from,"
                    + " which a shared MPSC channel does not tell");
        }
        int firstVertex = g.vertices.size();
        List<Vertex> entries = new ArrayList<>();
        List<Vertex> leftLoopEntries = new ArrayList<>();
        List<Vertex> leftExits = new ArrayList<>();
        for (int i = 0; i < left.size(); i++) {
            int before = g.vertices.size();
            Ports p = g.compile(left.get(i), path + "/left-" + i, i);
            if (feedback != Feedback.NONE) {
                requireNode(g, before, where, "left member " + i);
            }
            entries.addAll(p.entries);
            leftLoopEntries.addAll(p.loopEntries);
            leftExits.addAll(p.exits);
        }
        List<Vertex> rightEntries = new ArrayList<>();
        List<Vertex> exits = new ArrayList<>();
        for (int j = 0; j < right.size(); j++) {
            int before = g.vertices.size();
            Ports p = g.compile(right.get(j), path + "/right-" + j, j);
            if (feedback != Feedback.NONE) {
                requireNode(g, before, where, "right member " + j);
            }
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
        if (feedback != Feedback.NONE) {
            // back edges first: a right member's outputs 0.. lead back, forward outputs come after
            for (int j = 0; j < exits.size(); j++) {
                Vertex r = exits.get(j);
                if (feedback == Feedback.PAIRWISE) {
                    g.connect(r, leftExits.get(j), spec, true);
                    r.send = Vertex.Send.BACK;
                } else {
                    for (Vertex l : leftExits) {
                        g.connect(r, l, spec, true);
                    }
                    r.send = Vertex.Send.ORIGIN;
                }
            }
            // every left member heads the loop: each takes items from outside
            g.loops.add(new LoopShape(where, leftExits, g.since(firstVertex)));
        }
        return new Ports(entries, exits, leftLoopEntries);
    }

    /** All-to-all feedback routes by member: each member must be one node (its vertex is both its ports). */
    private static void requireNode(GraphBuilder g, int before, String where, String member) {
        if (g.vertices.size() - before != 1) {
            throw new IllegalStateException(where + ": with feedback, " + member + " must be a node (or a comb),"
                    + " not a block of " + (g.vertices.size() - before) + " nodes");
        }
    }
}
