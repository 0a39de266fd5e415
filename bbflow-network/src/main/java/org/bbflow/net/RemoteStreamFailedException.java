package org.bbflow.net;

import org.bbflow.core.FlowException;

/**
 * The stream a remote channel carried ended with a failure: its sender delivered every item and then
 * ended the stream saying why it was cut ({@link RemoteOutlet#completeWithFailure}), as a sending
 * flow does when its source threw a {@link org.bbflow.core.StreamFailure}. Nothing was lost on the
 * way: {@link RemoteInlet#take()} throws it only after the last item, and on every later call. The
 * inlet source of {@link RemoteBlocks#inlet(NetServer, int, Codec)} turns it into a
 * {@code StreamFailure} of its own, so the receiving flow fails without cancelling, as the sending
 * one did: its sinks get every item, a collecting sink holds no result, and {@code join()} throws a
 * {@link FlowException} whose cause is this exception.
 *
 * <p>Unlike a {@link RemoteChannelException} the channel itself did not fail.
 */
public final class RemoteStreamFailedException extends FlowException {
    private static final long serialVersionUID = 1L;

    /** The channel the stream came on. */
    private final int channelId;
    /** The items the stream carried before its failed end. */
    private final long items;
    /** The sender's description of the failure, printable ASCII. */
    private final String senderFailure;

    RemoteStreamFailedException(int channelId, long items, Object sender, String senderFailure) {
        super("channel " + channelId + ": the stream from " + sender + " ended with a failure after " + items
                + " items: " + senderFailure, null, null);
        this.channelId = channelId;
        this.items = items;
        this.senderFailure = senderFailure;
    }

    /**
     * The channel the stream came on.
     *
     * @return the channel id
     */
    public int channelId() {
        return channelId;
    }

    /**
     * How many items the stream carried before its failed end (all of them were delivered).
     *
     * @return the number of items
     */
    public long items() {
        return items;
    }

    /**
     * What the sender said its stream failed with: printable ASCII (other characters read as
     * {@code '?'}), at most 1000 characters.
     *
     * @return the sender's description of the failure
     */
    public String senderFailure() {
        return senderFailure;
    }
}
