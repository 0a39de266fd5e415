package org.bbflow.net.dist;

import org.bbflow.core.Outbox;
import org.bbflow.core.Source;
import org.bbflow.net.RemoteBlocks;
import org.bbflow.net.RemoteInlet;

/**
 * The first stage of a worker running in a non-master group: emits what the master (or the group of
 * the previous stage) sends it. Unlike {@code RemoteBlocks.inlet}, it leaves its inlet open when its
 * node ends: closing an inlet tells its sender at once that the receiver is gone, which fails the
 * master's side of the lane, and a failing group must first report why (the master waits only
 * {@link FarmLedger#LOSS_REPORT_WAIT} for the report of a group whose lane failed, then counts the
 * group lost). So its node's end only stops the reading ({@link RemoteInlet#stopReading()}, which
 * frees the frame in hand), and the group closes it after its report ({@link #closeAfterReport}), as
 * it aborts its {@link GroupOutlet}s.
 */
final class GroupInlet implements Source<Object> {
    private final RemoteInlet<Object> inlet;
    /** {@code RemoteBlocks.inlet}'s source on the same inlet: this one only changes what its node's end does. */
    private final Source<Object> reader;

    GroupInlet(RemoteInlet<Object> inlet) {
        this.inlet = inlet;
        this.reader = RemoteBlocks.inlet(inlet);
    }

    @Override
    public void generate(Outbox<Object> out) throws Exception {
        reader.generate(out);
    }

    /** At its node's end: stops reading (frees the frame in hand) but leaves the inlet open. */
    @Override
    public void close() {
        inlet.stopReading();
    }

    /** Closes the inlet (a sender still sending is told the receiver closed); idempotent. */
    void closeAfterReport() {
        inlet.close();
    }

    @Override
    public String name() {
        return reader.name();
    }
}
