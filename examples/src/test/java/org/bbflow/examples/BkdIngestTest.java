package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.bkd.BkdIngest;
import org.bbflow.examples.bkd.BkdIngest.Options;
import org.bbflow.examples.bkd.BkdIngest.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BkdIngestTest {
    @TempDir
    Path dir;

    @Test
    void randomPointsAreAllFoundWhileReadersQuery() throws Exception {
        Result r = BkdIngest.run(new Options(150_000, 2, null, 3, 1, 0.05, 50, 9, false));
        assertEquals(150_000, r.points());
        assertEquals(150_000, r.totalCount());
        assertEquals(0, r.mismatches(), "windows whose count differs from brute force");
        assertEquals(0, r.probeDrops(), "a reader saw the index shrink");
        assertTrue(r.queries() > 0, "the reader ran no query during the ingest");
        assertEquals(r.queries(), r.latencies().count());
        assertTrue(r.correct());
        assertEquals(3, r.stats().nodes().stream().filter(n -> n.name().equals("inserter")).count());
    }

    @Test
    void csvPointsWithAHeaderAreIngested() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("x,y,z");
        for (int i = 0; i < 5_000; i++) {
            lines.add((i % 100) + "," + (i / 100) + "," + (i % 7) * 0.5);
        }
        Path csv = dir.resolve("points.csv");
        Files.write(csv, lines);
        Result r = BkdIngest.run(new Options(1, 2, csv, 2, 1, 0.1, 100, 1, false));
        assertEquals(5_000, r.points());
        assertEquals(5_000, r.totalCount());
        assertEquals(0, r.mismatches());
    }

    @Test
    void malformedCsvNamesTheLine() throws IOException {
        Path csv = dir.resolve("bad.csv");
        Files.write(csv, List.of("1,2", "3,4", "5,oops"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BkdIngest.run(new Options(1, 2, csv, 1, 0, 0.1, 1, 1, false)));
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
    }
}
