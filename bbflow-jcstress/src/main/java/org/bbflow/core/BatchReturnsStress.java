package org.bbflow.core;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * The way back of a recycled batch ({@link BatchReturns}): the consumer reads a batch and then gives
 * it back, the producer takes it and fills it again. The consumer's read must never see the refill:
 * its give (a release) comes after the read, the producer's poll (an acquire) before the write.
 *
 * <p>Result: (the value the consumer read, the value the producer wrote or 0 if it found nothing).
 */
@JCStressTest
@Outcome(id = {"1, 0", "1, 2"}, expect = Expect.ACCEPTABLE, desc = "read the value sent, before any refill")
@Outcome(id = "2, 2", expect = Expect.FORBIDDEN, desc = "the consumer read the refill of a batch it had not given back yet")
@State
public class BatchReturnsStress {
    private final BatchReturns returns = new BatchReturns(4, new BatchPool(0));
    private final LongBatch batch = LongBatch.of(1);

    @Actor
    public void consumer(JJ_Result r) {
        r.r1 = batch.values[0];
        returns.give(batch);
    }

    @Actor
    public void producer(JJ_Result r) {
        Object back = returns.poll();
        if (back != null) {
            ((LongBatch) back).values[0] = 2;
            r.r2 = 2;
        }
    }
}
