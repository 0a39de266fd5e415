package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.nbuf.ParallelCompress;
import org.bbflow.examples.nbuf.ParallelCompress.Options;
import org.bbflow.examples.nbuf.ParallelCompress.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.bbflow.testing.TestSeed;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelCompressTest {
    @TempDir
    Path dir;

    @Test
    void generatedLogCompressesIdenticallyWithinTheMemoryLimit() throws IOException {
        // 16 KiB chunks, 128 KiB limit: 4 input buffers for 3 workers and ~40 chunks
        Options o = new Options(null, 650_000, null, 128 << 10, 16 << 10, 3, 6, false);
        Result r = ParallelCompress.run(o, Output.silent());
        assertEquals(650_000, r.inputBytes());
        assertEquals(4, r.buffers());
        assertTrue(r.identicalOutput(), "parallel output differs from sequential output");
        assertTrue(r.roundTrip(), "parallel output does not decompress to the input");
        assertTrue(r.parallel().inOrder());
        assertEquals((650_000 + (16 << 10) - 1) / (16 << 10), r.parallel().frames());
        assertEquals(r.sequential().frames(), r.parallel().frames());
        assertTrue(r.parallel().peakBuffers() <= 4, "used more buffers than the limit allows");
        assertTrue(r.parallel().compressedBytes() < 650_000 / 2, "the log should compress well");
    }

    @Test
    void givenFilesOfAwkwardSizesRoundTrip() throws IOException {
        SplittableRandom random = new SplittableRandom(TestSeed.mix(3));
        for (int size : new int[] {0, 1, 4095, 4096, 4097, 50_001}) {
            byte[] data = new byte[size];
            for (int i = 0; i < size; i++) {
                data[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + (i % 7)); // partly random
            }
            Path input = dir.resolve("in-" + size);
            Path output = dir.resolve("out-" + size);
            Files.write(input, data);
            Result r = ParallelCompress.run(new Options(input, 0, output, 16 << 10, 4096, 2, 1, false), Output.silent());
            assertTrue(r.identicalOutput(), "size " + size);
            assertTrue(r.roundTrip(), "size " + size);
            assertEquals((size + 4095) / 4096, r.parallel().frames(), "size " + size);
            assertTrue(Files.exists(output), "the requested output file is kept");
        }
    }

    @Test
    void aLimitTooSmallForTwoChunksIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> ParallelCompress.run(new Options(null, 1000, null, 4096, 4096, 2, 6, false), Output.silent()));
    }
}
