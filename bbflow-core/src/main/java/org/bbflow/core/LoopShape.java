package org.bbflow.core;

import java.util.List;

/**
 * A feedback loop as the block that closes it declares it: its heads (where items come back: a
 * pipeline's first stage, a farm's emitter, an all-to-all's left members) and its members (every
 * vertex the block compiled into that the loop runs through). How loops nest, and what is counted in
 * flight, is the plan compiler's decision ({@link Loops}).
 */
final class LoopShape {
    /** The block closing the loop, for error messages. */
    final String owner;
    final List<Vertex> heads;
    final List<Vertex> members;

    LoopShape(String owner, List<Vertex> heads, List<Vertex> members) {
        this.owner = owner;
        this.heads = List.copyOf(heads);
        this.members = List.copyOf(members);
    }
}
