package org.bbflow.core;

import java.util.List;

/**
 * The ends of the public channels that running flows hold: one flow at a time fills a channel
 * ({@link Nodes#toChannel}) and one drains it ({@link Nodes#fromChannel}). Inside one flow the plan
 * compiler refuses a second node at an end; across flows {@link Flow#start} refuses a flow whose
 * node would take an end another running flow holds (the first flow to end would close the channel
 * and its reader take a clean end of stream with the other's items missing; two readers would poll
 * one SPSC queue from two threads). A flow takes its ends with its nodes, before any thread starts,
 * and each node gives its end back when it has ended. Taking turns is allowed where it is sound: a
 * flow may drain a channel that an earlier flow drained and left (cancelled before the end of
 * stream, say), but a channel's end of stream is final, so a flow may fill only a channel that is
 * still open. Every method runs under the lock of {@link Flow}'s registry of running nodes.
 */
final class ChannelEnds {
    private ChannelEnds() {
    }

    /** Refuses the flow if one of its nodes would take a channel end that is held, or fill a closed channel. */
    static void check(List<NodePlan> nodes) {
        for (NodePlan n : nodes) {
            for (Node<?, ?> m : n.members) {
                if (m instanceof Nodes.ChannelSink) {
                    Channel<?> c = ((Nodes.ChannelSink<?>) m).channel;
                    if (c.filledAt != null) {
                        throw new IllegalStateException("channel ends: " + c + " is filled by Nodes.toChannel at "
                                + c.filledAt + " in a flow still running, so " + n.path + " may not fill it too: a"
                                + " channel has one producer (the first flow to end would end its stream for both)");
                    }
                    if (c.isClosed()) {
                        throw new IllegalStateException("channel ends: " + c + " is closed, its stream ended, so "
                                + n.path + " may not fill it: a channel carries one stream; use a new channel");
                    }
                } else if (m instanceof Nodes.ChannelSource) {
                    Channel<?> c = ((Nodes.ChannelSource<?>) m).channel;
                    if (c.drainedAt != null) {
                        throw new IllegalStateException("channel ends: " + c + " is drained by Nodes.fromChannel at "
                                + c.drainedAt + " in a flow still running, so " + n.path + " may not drain it too: a"
                                + " channel has one consumer (start the second flow once the first has ended)");
                    }
                }
            }
        }
    }

    /** Takes the channel ends of the flow's nodes (after {@link #check}). */
    static void take(List<NodePlan> nodes) {
        for (NodePlan n : nodes) {
            for (Node<?, ?> m : n.members) {
                set(m, n.path);
            }
        }
    }

    /** Gives back the channel ends of these nodes (a node that ended, or a start that was abandoned). */
    static void giveBack(List<? extends Node<?, ?>> members) {
        for (Node<?, ?> m : members) {
            set(m, null);
        }
    }

    private static void set(Node<?, ?> m, String path) {
        if (m instanceof Nodes.ChannelSink) {
            ((Nodes.ChannelSink<?>) m).channel.filledAt = path;
        } else if (m instanceof Nodes.ChannelSource) {
            ((Nodes.ChannelSource<?>) m).channel.drainedAt = path;
        }
    }
}
