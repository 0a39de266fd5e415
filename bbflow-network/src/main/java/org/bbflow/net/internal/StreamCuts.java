package org.bbflow.net.internal;

import org.bbflow.core.NodeContext;

/**
 * What a node tells the receiver of the stream it sends when its flow's stream was cut (a source's
 * {@code StreamFailure}): shared by {@code org.bbflow.net.OutletNode} and the distributed job's
 * senders in {@code org.bbflow.net.dist}. This package is not exported by the module
 * {@code org.bbflow.net} and is not API (docs/setup.md): public only so that both packages of the
 * module can reach it.
 */
public final class StreamCuts {
    private StreamCuts() {}

    /**
     * The failure description a cut stream's end carries ({@code RemoteOutlet.completeWithFailure}):
     * the node that sends the stream and its flow's failure.
     *
     * @param ctx the sending node's context
     * @return "the stream sent by PATH was cut: FAILURE"
     */
    public static String description(NodeContext ctx) {
        Throwable f = ctx.flowFailure();
        return "the stream sent by " + ctx.path() + " was cut: " + (f != null ? f.toString() : "its flow failed");
    }
}
