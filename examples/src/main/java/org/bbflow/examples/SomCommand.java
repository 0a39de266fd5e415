package org.bbflow.examples;

import org.bbflow.examples.som.SelfOrganizingMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code som}: the self-organizing map split over a farm. */
@Command(name = "som", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Self-organizing map split over a farm with neighbour channels and feedback.",
            "The map in strips over a farm's workers (thesis chapter 6), neighbour channels between adjacent"
                + " strips, search and learn phases driven by the emitter and acknowledged through the"
                + " collector's feedback channel. Trains sequentially and with 1..W workers, prints the"
                + " speedup and checks that every run produced the same map for the same seed."})
final class SomCommand extends Subcommand {
    private static final SelfOrganizingMap.Options D = SelfOrganizingMap.Options.defaults();
    /**
     * The widest farm: som trains with every width from 1 to {@code --workers} in turn, as demo does, so N
     * makes N farms and N(N+1)/2 worker threads; 100,000 (on a 100,000-row map) never ended. The same
     * bound as {@link DemoCommand#MAX_WORKERS}: 256, or the cores if more.
     */
    static final int MAX_WORKERS = Math.max(256, D.workers());

    @Option(names = "--rows", paramLabel = "R", description = "map rows (default ${DEFAULT-VALUE})")
    int rows = D.rows();

    @Option(names = "--cols", paramLabel = "C", description = "map columns (default ${DEFAULT-VALUE})")
    int cols = D.cols();

    @Option(names = "--dims", paramLabel = "D", description = "weights per neuron (default ${DEFAULT-VALUE})")
    int dims = D.dims();

    @Option(names = "--samples", paramLabel = "N", description = "training samples (default ${DEFAULT-VALUE})")
    int samples = D.samples();

    @Option(names = "--radius", paramLabel = "R", description = "initial learning radius (default ${DEFAULT-VALUE})")
    int radius = D.radius();

    @Option(names = "--alpha", paramLabel = "A", description = "initial learning rate, > 0 and <= 1; shrinks to 0 over the samples (default ${DEFAULT-VALUE})")
    double alpha = D.alpha();

    @Option(names = "--workers", paramLabel = "W", description = "widest farm: trains with 1..W workers in turn; W at most 256, or the cores if more (default max(2, cores), ${DEFAULT-VALUE})")
    int workers = D.workers();

    @Option(names = "--seed", paramLabel = "S", description = "seed of the map and samples (default ${DEFAULT-VALUE})")
    long seed = D.seed();

    @Option(names = "--no-progress", description = "no progress lines")
    boolean noProgress;

    @Override
    public Integer call() {
        atLeast("--rows", rows, 1);
        atLeast("--cols", cols, 1);
        atLeast("--dims", dims, 1);
        atLeast("--samples", samples, 1);
        atLeast("--radius", radius, 1);
        within("--workers", workers, 1, MAX_WORKERS);
        SelfOrganizingMap.Options o = checked(() -> new SelfOrganizingMap.Options(rows, cols, dims, samples, radius,
                alpha, workers, seed, !noProgress).validated());
        return SelfOrganizingMap.main(o, out);
    }
}
