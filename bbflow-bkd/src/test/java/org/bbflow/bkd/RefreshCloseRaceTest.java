package org.bbflow.bkd;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

/**
 * A {@code refresh()} racing {@code close()} of a directory index: if it returned normally, its
 * points were published before close() committed, so the reopened index holds them; otherwise it
 * fails with an IllegalStateException saying the index is closed. Seeded rounds.
 */
@Timeout(120)
class RefreshCloseRaceTest {

    @Test
    void aRefreshThatReturnedIsInTheCommitOfClose(@TempDir Path tmp) throws Exception {
        long seed = TestSeed.current();
        int rounds = Integer.getInteger("bkd.race.rounds", 40);
        System.out.println("RefreshCloseRaceTest seed " + seed + " (-Dbbflow.seed=" + TestSeed.root() + "), "
                + rounds + " rounds");
        Random r = new Random(seed);
        List<String> bad = new ArrayList<>();
        for (int round = 0; round < rounds && bad.isEmpty(); round++) {
            Path dir = tmp.resolve("r" + round);
            int n = 2_000 + r.nextInt(6_000);
            int spin = r.nextInt(2_000);
            BkdTree t = BkdTree.builder(2).directory(dir).merging(r.nextBoolean()).build();
            CountDownLatch ready = new CountDownLatch(1);
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread w = new Thread(() -> {
                for (int i = 0; i < n; i++) {
                    t.insert(Oracle.pointOf(i, 2, 1000), i);
                }
                ready.countDown();
                try {
                    t.refresh();
                    outcome.set("returned");
                } catch (Throwable e) {
                    outcome.set(e);
                }
            });
            w.start();
            assertTrue(ready.await(20, TimeUnit.SECONDS));
            for (int i = 0; i < spin; i++) {
                Thread.onSpinWait();
            }
            t.close();
            w.join(20_000);
            long count;
            try (BkdTree again = BkdTree.builder(2).directory(dir).build()) {
                count = again.count(Box.all(2));
            }
            Object o = outcome.get();
            String at = "seed " + seed + " round " + round + ": ";
            if ("returned".equals(o)) {
                if (count != n) {
                    bad.add(at + "refresh() returned, but the commit of close() holds " + count + " of " + n);
                }
            } else if (!(o instanceof IllegalStateException e && e.getMessage().contains("closed"))) {
                bad.add(at + "refresh() failed with " + o);
            }
        }
        assertTrue(bad.isEmpty(), bad.toString());
    }
}
