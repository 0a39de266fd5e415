package org.bbflow.core;

/** One feedback loop of a compiled flow (nested loops with one head are one): its heads. Immutable. */
final class LoopPlan {
    final int index;
    /** The outermost block closing the loop, for error messages. */
    final String owner;
    /** The members that take items from outside the loop and end it together. */
    final int[] heads;

    LoopPlan(int index, String owner, int[] heads) {
        this.index = index;
        this.owner = owner;
        this.heads = heads.clone();
    }
}
