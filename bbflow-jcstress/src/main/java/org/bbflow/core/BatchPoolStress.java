package org.bbflow.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A batch handed from a finished flow to the next through the {@link BatchPool}: the consumer end of
 * a way back reads a batch, gives it back and closes; the producer end closes; whichever closes
 * second drains the way back into the pool; then a stage of a next flow (two actors: on the producer
 * end's thread) takes from the pool and fills what it gets. The consumer's read must never see that
 * fill, and the drain must never miss the batch given back before the consumer's close (the
 * counter's read-modify-write orders both).
 *
 * <p>Result: (the value the consumer read, 2 if the next flow got and filled the batch or 0, the
 * batches in the pool at the end plus the one taken).
 */
@JCStressTest
@Outcome(id = {"1, 0, 1", "1, 2, 1"}, expect = Expect.ACCEPTABLE, desc = "read before any refill; the batch pooled or taken")
@Outcome(id = "2, 2, 1", expect = Expect.FORBIDDEN, desc = "the consumer read a refill by the next flow")
@Outcome(id = "1, 0, 0", expect = Expect.FORBIDDEN, desc = "the drain missed a batch given back before the close")
@State
public class BatchPoolStress {
    private final BatchPool pool = new BatchPool(4);
    private final BatchReturns returns = new BatchReturns(4, pool);
    private final LongBatch batch = LongBatch.of(1);

    @Actor
    public void consumerEnd(III_Result r) {
        r.r1 = (int) batch.values[0];
        returns.give(batch);
        returns.close();
    }

    /** The producer end closes; a stage of the next flow, on this thread, then takes from the pool. */
    @Actor
    public void producerEndThenNextFlow(III_Result r) {
        returns.close();
        LongBatch b = pool.takeLongs(1);
        if (b != null) {
            b.values[0] = 2;
            r.r2 = 2;
        }
    }

    @Arbiter
    public void end(III_Result r) {
        r.r3 = pool.longs() + (r.r2 == 2 ? 1 : 0);
    }
}
