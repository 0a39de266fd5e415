package org.bbflow.core;

import java.util.ArrayList;
import java.util.List;

/**
 * One node of a composition as its blocks describe it, before the {@link PlanCompiler} decides
 * anything: the node, its place (path, worker index), its edges, and what
 * its own block says about its outputs and inputs. Only blocks (while they compile themselves into a
 * {@link GraphBuilder}) and the plan compiler read or write it; the runtime reads the compiled
 * {@link NodePlan} instead.
 */
final class Vertex {
    /** What {@link Outbox#send} means for this node, as its block says. */
    enum Send {
        /** By the dispatch policy (round-robin unless the block gives one). */
        POLICY,
        /** Back, on output 0: the node closes a feedback loop ({@code sendTo(1, x)} goes forward). */
        BACK,
        /** Back to the left member the current item came from (a right member of an all-to-all with feedback). */
        ORIGIN
    }

    final Node<Object, Object> node;
    final String path;
    final int workerIndex;
    final List<Edge> in = new ArrayList<>();
    final List<Edge> out = new ArrayList<>();
    /** The dispatch policy of the block that owns the outputs (a farm's emitter, an all-to-all's left members), or null. */
    Dispatch dispatch;
    /** The collect policy, for a farm's collector; first-come otherwise. */
    Collect collect = Collect.FIRST_COME;
    Send send = Send.POLICY;

    @SuppressWarnings("unchecked")
    Vertex(Node<?, ?> node, String path, int workerIndex) {
        this.node = (Node<Object, Object>) node;
        this.path = path;
        this.workerIndex = workerIndex;
    }

    boolean isSource() {
        return node instanceof Source;
    }

    @Override
    public String toString() {
        return path;
    }
}
