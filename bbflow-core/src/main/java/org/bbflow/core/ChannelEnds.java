package org.bbflow.core;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
 * still open. Across flows a ring is refused too ({@link #checkCycles}): flows that each drain a
 * channel another fills would never end. Every method runs under the lock of {@link Flow}'s
 * registry of running nodes, at a flow's start or at a node's end: nothing here is on an item's path.
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
    static void take(FlowPlan plan) {
        for (NodePlan n : plan.nodes) {
            for (Node<?, ?> m : n.members) {
                set(m, n.path);
                if (m instanceof Nodes.ChannelSource) {
                    ((Nodes.ChannelSource<?>) m).channel.feeds = plan.channelFeeds.get(m);
                }
            }
        }
    }

    /**
     * Refuses a flow that would close a cycle of channels across running flows (after {@link #take},
     * so that its own ends count; on refusal the caller gives them back). A flow's {@code toChannel}
     * node downstream of its {@code fromChannel} node closes its channel only after the drained one
     * has closed; when, through the flows holding the ends now, a channel this flow fills leads back
     * to one it drains, no channel of the ring can ever close: flow A draining ch1 into ch2 and flow
     * B draining ch2 into ch1 would both wait for ever. An edge counts only while both its nodes hold
     * their ends (each gives its end back when it has ended, and a filler that ended closed its
     * channel for good), so a flow that ended, however, is no part of a ring. Within one flow the
     * plan compiler has refused the ring already. Start only, under the registry's lock: two flows
     * that start together are checked one after the other, and the second sees the first's ends.
     */
    static void checkCycles(FlowPlan plan) {
        for (Map.Entry<Nodes.ChannelSource<?>, List<Nodes.ChannelSink<?>>> e : plan.channelFeeds.entrySet()) {
            Channel<?> drained = e.getKey().channel;
            for (Nodes.ChannelSink<?> first : e.getValue()) {
                List<Nodes.ChannelSink<?>> ring = ringBack(first, drained);
                if (ring != null) {
                    throw new IllegalStateException(describe(plan.name, drained, first, ring));
                }
            }
        }
    }

    /**
     * The {@code toChannel} nodes of a path from {@code first}'s channel back to {@code target}
     * through the live edges (a channel drained now, to the channels filled downstream of its
     * drainer by nodes still holding them), or null if there is none.
     */
    private static List<Nodes.ChannelSink<?>> ringBack(Nodes.ChannelSink<?> first, Channel<?> target) {
        Map<Channel<?>, Nodes.ChannelSink<?>> reachedBy = new IdentityHashMap<>();
        Map<Channel<?>, Channel<?>> from = new IdentityHashMap<>();
        List<Channel<?>> todo = new ArrayList<>();
        reachedBy.put(first.channel, first);
        todo.add(first.channel);
        while (!todo.isEmpty()) {
            Channel<?> c = todo.remove(todo.size() - 1);
            if (c == target) {
                List<Nodes.ChannelSink<?>> ring = new ArrayList<>();
                for (Channel<?> x = c; ; x = from.get(x)) {
                    Nodes.ChannelSink<?> s = reachedBy.get(x);
                    ring.add(0, s);
                    if (s == first) {
                        return ring;
                    }
                }
            }
            List<Nodes.ChannelSink<?>> feeds = c.feeds;
            if (c.drainedAt == null || feeds == null) {
                continue;
            }
            for (Nodes.ChannelSink<?> s : feeds) {
                if (s.channel.filler == s && reachedBy.putIfAbsent(s.channel, s) == null) {
                    from.put(s.channel, c);
                    todo.add(s.channel);
                }
            }
        }
        return null;
    }

    private static String describe(String flow, Channel<?> drained, Nodes.ChannelSink<?> first,
            List<Nodes.ChannelSink<?>> ring) {
        StringBuilder b = new StringBuilder("channel ends: starting flow '").append(flow)
                .append("' would close a cycle of channels across running flows, which could never end (a channel")
                .append(" closes only at its filler's end of stream, which waits for the channel its flow drains):");
        Channel<?> c = drained;
        for (Nodes.ChannelSink<?> s : ring) {
            b.append(' ').append(c.drainedAt).append(" drains ").append(c).append(" and ").append(s.channel.filledAt)
                    .append(" fills ").append(s.channel).append(" downstream of it;");
            c = s.channel;
        }
        b.setLength(b.length() - 1);
        return b.append(". Start the flows as a chain, not a ring, or loop inside one flow with feedback()").toString();
    }

    /** Gives back the channel ends of these nodes (a node that ended, or a start that was abandoned). */
    static void giveBack(List<? extends Node<?, ?>> members) {
        for (Node<?, ?> m : members) {
            set(m, null);
        }
    }

    private static void set(Node<?, ?> m, String path) {
        if (m instanceof Nodes.ChannelSink) {
            Nodes.ChannelSink<?> s = (Nodes.ChannelSink<?>) m;
            s.channel.filledAt = path;
            s.channel.filler = path == null ? null : s;
        } else if (m instanceof Nodes.ChannelSource) {
            Channel<?> c = ((Nodes.ChannelSource<?>) m).channel;
            c.drainedAt = path;
            c.feeds = null; // take() sets them after
        }
    }
}
