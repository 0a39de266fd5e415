package org.bbflow.examples;

import java.io.IOException;
import java.nio.file.Path;
import org.bbflow.examples.nbuf.ParallelCompress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code compress}: parallel file compression with n-buffered I/O. */
@Command(name = "compress", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Parallel file compression with n-buffered I/O, ordered output, memory limit.",
            "A chunk source reading into a fixed pool of buffers, an ordered farm deflating chunks, a writer"
                + " emitting frames in input order. Checks the output against a sequential loop (byte for byte)"
                + " and by decompressing it. Sizes take k/m/g."})
final class CompressCommand extends Subcommand {
    private static final ParallelCompress.Options D = ParallelCompress.Options.defaults();

    @Option(names = "--input", paramLabel = "FILE", description = "the file to compress (default: a generated log)")
    Path input;

    @Option(names = "--size", paramLabel = "BYTES", converter = Converters.Size.class,
            description = "size of the generated log (default 64m)")
    long size = D.size();

    @Option(names = "--output", paramLabel = "FILE", description = "where the output goes (default: a temporary file)")
    Path output;

    @Option(names = "--memory", paramLabel = "BYTES", converter = Converters.Size.class,
            description = "memory limit for buffers (default 16m)")
    long memory = D.memoryLimit();

    @Option(names = "--chunk", paramLabel = "BYTES", converter = Converters.Size.class,
            description = "bytes per chunk (default 1m)")
    long chunk = D.chunkSize();

    @Option(names = "--workers", paramLabel = "N", description = "compressing workers (default ${DEFAULT-VALUE})")
    int workers = D.workers();

    @Option(names = "--level", paramLabel = "0..9", description = "deflate level (default ${DEFAULT-VALUE})")
    int level = D.level();

    @Option(names = "--no-progress", description = "no progress lines")
    boolean noProgress;

    @Override
    public Integer call() throws IOException {
        atLeast("--size", size, 0);
        within("--chunk", chunk, 1, 1 << 30);
        atLeast("--memory", memory, 1);
        within("--workers", workers, 1, org.bbflow.core.Parallelism.MAX); // the farm's bound, checked before anything starts
        within("--level", level, 0, 9);
        if (input != null) {
            inputFile(input);
        }
        if (output != null) { // checked before the header and the run, which would truncate --input if it is the same
            outputFile("--output", output, "--input", input);
        }
        if (input == null) { // the generated log goes to the temporary directory, before anything is compressed
            fitsOnDisk("--size " + size + " (the generated log)", size, null);
        }
        ParallelCompress.Options o = checked(() -> new ParallelCompress.Options(input, size, output, memory,
                (int) chunk, workers, level, !noProgress).validated());
        return ParallelCompress.main(o, out);
    }
}
