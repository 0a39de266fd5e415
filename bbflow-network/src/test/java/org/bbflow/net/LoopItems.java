package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.bbflow.core.Block;
import org.bbflow.core.Farm;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.Source;

/**
 * Items of a feedback loop that crosses JVMs, with a sequential oracle. An item is a long
 * {@code id << 8 | trips}: the remote path adds one trip, the loop in the first JVM sends it round
 * again until it has made the number of trips drawn for its id from the seed, then lets it leave.
 */
final class LoopItems {
    static final int MAX_TRIPS = 8;

    final long seed;
    final int n;
    /** Trips each id must make, drawn sequentially from the seed (the oracle). */
    final int[] rounds;
    /** Written by the sink only (one thread); read after the flow has ended. */
    final int[] seen;
    final int[] trips;

    LoopItems(long seed, int n) {
        this.seed = seed;
        this.n = n;
        this.rounds = new int[n];
        this.seen = new int[n];
        this.trips = new int[n];
        Random r = new Random(seed);
        for (int i = 0; i < n; i++) rounds[i] = 1 + r.nextInt(MAX_TRIPS);
    }

    static int id(long x) {
        return (int) (x >>> 8);
    }

    static int trips(long x) {
        return (int) (x & 0xff);
    }

    Source<Long> source() {
        return Nodes.source((Outbox<Long> out) -> {
            for (long i = 0; i < n; i++) out.send(i << 8);
        });
    }

    /** The loop's last stage: round again ({@code send}) or leave ({@code sendTo(1)}); throws at {@code failId}'s first return. */
    Node<Long, Long> decide(int failId) {
        return Nodes.flatMap((Long x, Outbox<Long> o) -> {
            int id = id(x);
            if (id == failId && trips(x) == 1) throw new IllegalStateException("boom-parent at item " + id);
            if (trips(x) < rounds[id]) o.send(x);
            else o.sendTo(1, x);
        });
    }

    Node<Long, Void> sink() {
        return Nodes.sink((Long x) -> {
            seen[id(x)]++;
            trips[id(x)] = trips(x);
        });
    }

    /** The whole flow of the first JVM: source, the loop through {@code roundTrip}, sink. */
    Pipeline<Void, Void> flow(Block<Long, Long> roundTrip, int failId) {
        return Pipeline.of(source(), Pipeline.of(roundTrip, decide(failId)).feedback(), sink());
    }

    /** The remote path's worker: one more trip; throws on {@code failId}'s second visit. */
    static Farm<Long, Long> workers(int workers, int failId) {
        return Farm.of(workers, () -> Nodes.map((Long x) -> {
            if (id(x) == failId && trips(x) == 1) throw new IllegalStateException("boom-child at item " + failId);
            return x + 1;
        }));
    }

    void check() {
        for (int i = 0; i < n; i++) {
            assertEquals(1, seen[i], "seed " + seed + ": item " + i + " left the loop " + seen[i] + " times");
            assertEquals(rounds[i], trips[i], "seed " + seed + ": trips of item " + i);
        }
    }
}
