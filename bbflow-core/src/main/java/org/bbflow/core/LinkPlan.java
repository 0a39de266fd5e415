package org.bbflow.core;

/**
 * One runtime channel of a compiled flow: its kind and capacity, its consumer and producers, the
 * wait strategies of both ends (what the channel must do to wake them), and the loop whose in-flight
 * count it belongs to. One per edge, except that the edges into a node whose inputs share an MPSC
 * channel share one. Immutable.
 */
final class LinkPlan {
    final int index;
    final Channel.Kind kind;
    final int capacity;
    final int consumer;
    final int[] producers;
    /** The feedback loop whose in-flight count items on this channel belong to, or -1. */
    final int loop;

    LinkPlan(int index, Channel.Kind kind, int capacity, int consumer, int[] producers, int loop) {
        this.index = index;
        this.kind = kind;
        this.capacity = capacity;
        this.consumer = consumer;
        this.producers = producers.clone();
        this.loop = loop;
    }
}
