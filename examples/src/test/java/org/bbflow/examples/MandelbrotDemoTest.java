package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.demo.MandelbrotDemo;
import org.bbflow.examples.demo.MandelbrotDemo.Options;
import org.bbflow.examples.demo.MandelbrotDemo.Result;
import org.bbflow.examples.demo.MandelbrotDemo.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MandelbrotDemoTest {

    @Test
    void everyFarmWidthReproducesTheSequentialRowsInOrder() {
        Options o = new Options(90, 64, 300, 3, false);
        Result r = MandelbrotDemo.run(o);
        assertEquals(4, r.runs().size(), "sequential + farms of 1, 2, 3 workers");
        long[] expected = new long[90];
        for (int y = 0; y < 90; y++) {
            expected[y] = MandelbrotDemo.renderRow(y, 64, 90, 300).iterations();
        }
        assertArrayEquals(expected, r.sequentialRows());
        for (Run run : r.runs().subList(1, 4)) {
            assertTrue(run.sameAsSequential(), "farm of " + run.workers() + " differs");
            assertTrue(run.inOrder(), "farm of " + run.workers() + " delivered rows out of order");
            assertEquals(90, run.stats().node("image[2]").itemsIn());
            assertEquals(run.workers(), run.stats().nodes().stream().filter(n -> n.path().contains("worker-")).count());
        }
        assertTrue(r.allMatch());
    }

    @Test
    void everyConfigurationWarmsUpBeforeTheFirstTimedRunAndRoundsInterleave() {
        Options o = new Options(90, 64, 300, 3, false, 2);
        Result r = MandelbrotDemo.run(o);
        // the warm-up: the loop and every farm width once, on a quarter of the rows, before any timed run
        assertEquals(List.of(0, 1, 2, 3), r.warmup().stream().map(Run::workers).toList());
        for (Run w : r.warmup()) {
            assertTrue(w.sameAsSequential() && w.inOrder(), "warm-up of " + w.workers() + " workers");
            if (w.workers() > 0) {
                assertEquals(22, w.stats().node("image[2]").itemsIn(), "the warm-up streams rows / 4");
            }
        }
        // then the timed rounds, each the loop and every farm in turn
        assertEquals(2, r.rounds().size());
        for (List<Run> round : r.rounds()) {
            assertEquals(List.of(0, 1, 2, 3), round.stream().map(Run::workers).toList());
            for (Run run : round.subList(1, 4)) {
                assertEquals(90, run.stats().node("image[2]").itemsIn());
            }
        }
        // each configuration reports its fastest round
        for (int i = 0; i < 4; i++) {
            double fastest = Math.min(r.rounds().get(0).get(i).seconds(), r.rounds().get(1).get(i).seconds());
            assertEquals(fastest, r.runs().get(i).seconds());
        }
        assertTrue(r.allMatch());
    }

    @Test
    void aOneWorkerFarmFasterThanTheLoopIsFlaggedAsNoise() {
        Options o = new Options(12, 16, 50, 2, false, 1);
        Result real = MandelbrotDemo.run(o);
        Run seq = real.sequential();
        List<Run> runs = new ArrayList<>(real.runs());
        Run one = runs.get(1);
        runs.set(1, new Run(1, seq.seconds() / 1.38, one.coresUsed(), true, true, one.stats()));
        Result noisy = new Result(real.sequentialRows(), runs, real.warmup(), real.rounds());
        List<String> printed = new ArrayList<>();
        MandelbrotDemo.print(o, noisy, printed::add);
        assertTrue(printed.stream().anyMatch(l -> l.startsWith("note: the 1-worker farm ran 1.38x faster than the loop")),
                String.join("\n", printed));

        runs.set(1, new Run(1, seq.seconds() * 1.02, one.coresUsed(), true, true, one.stats()));
        printed.clear();
        MandelbrotDemo.print(o, new Result(real.sequentialRows(), runs, real.warmup(), real.rounds()), printed::add);
        assertTrue(printed.stream().noneMatch(l -> l.startsWith("note:")), String.join("\n", printed));
        assertTrue(printed.stream().anyMatch(l -> l.startsWith("(each the fastest of 1 round, after an untimed warm-up on 3 rows)")),
                String.join("\n", printed));
    }

    @Test
    void rowsHaveTheExpectedEscapeTimes() {
        // the row through the middle of the set: many pixels never escape and count the full budget
        MandelbrotDemo.Row middle = MandelbrotDemo.renderRow(50, 100, 100, 1000);
        assertTrue(middle.iterations() > 20 * 1000L, "middle row too cheap: " + middle.iterations());
        // the top row lies outside the set: every pixel escapes quickly
        assertTrue(MandelbrotDemo.renderRow(0, 100, 100, 1000).iterations() < 100 * 10L);
    }
}
