package org.bbflow.examples;

import java.io.IOException;
import java.nio.file.Path;
import org.bbflow.bkd.BkdTree;
import org.bbflow.examples.bkd.BkdIngest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bkd}: Bkd-tree ingest while readers query. */
@Command(name = "bkd", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Bkd-tree ingest by a farm of inserters while readers run window queries.",
            "A farm of inserters ingests random (or CSV) points while reader threads run window queries;"
                + " prints inserts/s and query latency percentiles, then checks the index against a brute-force"
                + " count."})
final class BkdCommand extends Subcommand {
    private static final BkdIngest.Options D = BkdIngest.Options.defaults();

    @Option(names = "--points", paramLabel = "N", description = "random points (default ${DEFAULT-VALUE})")
    long points = D.points();

    @Option(names = "--dims", paramLabel = "D", description = "dimensions of random points (default ${DEFAULT-VALUE})")
    int dims = D.dims();

    @Option(names = "--csv", paramLabel = "FILE", description = "points from a CSV file instead (one per line)")
    Path csv;

    @Option(names = "--inserters", paramLabel = "N", description = "inserter nodes (default ${DEFAULT-VALUE})")
    int inserters = D.inserters();

    @Option(names = "--readers", paramLabel = "N", description = "query threads (default ${DEFAULT-VALUE})")
    int readers = D.readers();

    @Option(names = "--window", paramLabel = "FRACTION",
            description = "query window side, a fraction of the extent (default ${DEFAULT-VALUE})")
    double window = D.window();

    @Option(names = "--checks", paramLabel = "N", description = "windows checked by brute force (default ${DEFAULT-VALUE})")
    int checks = D.checks();

    @Option(names = "--seed", paramLabel = "S", description = "seed of points and windows (default ${DEFAULT-VALUE})")
    long seed = D.seed();

    @Option(names = "--directory", paramLabel = "DIR",
            description = "keep the index in DIR, a new or empty directory (committed at the end; check it with bkd-check)")
    Path directory;

    @Option(names = "--no-progress", description = "no progress lines")
    boolean noProgress;

    @Override
    public Integer call() throws IOException, InterruptedException {
        within("--points", points, 1, Integer.MAX_VALUE);
        within("--dims", dims, 1, BkdTree.MAX_DIMS);
        // each inserter and each reader is a thread of its own: inserters beyond the farm's bound failed only
        // once running, and 100,000 readers never let the run end
        within("--inserters", inserters, 1, org.bbflow.core.Parallelism.MAX);
        within("--readers", readers, 0, org.bbflow.core.Parallelism.MAX);
        if (!(window > 0 && window <= 1)) {
            throw usage("--window must be > 0 and <= 1, got " + window);
        }
        atLeast("--checks", checks, 0);
        if (csv != null) {
            inputFile(csv);
        }
        BkdIngest.Options o = checked(() -> new BkdIngest.Options(points, dims, csv, inserters, readers, window,
                checks, seed, !noProgress, directory).validated());
        return BkdIngest.main(o, out);
    }
}
