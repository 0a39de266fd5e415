package org.bbflow.examples;

import org.bbflow.examples.demo.MandelbrotDemo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code demo}: the main job, Mandelbrot rows through an ordered farm. */
@Command(name = "demo", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"The main job: Mandelbrot rows through an ordered farm, speedup vs a loop.",
            "Renders the Mandelbrot set with a loop, then with source -> ordered farm -> sink for 1..N workers,"
                + " after an untimed warm-up; prints speedup, efficiency and per-node statistics (busy = CPU time)."
                + " Small and quick: --items 100 --work 200"})
final class DemoCommand extends Subcommand {
    private static final MandelbrotDemo.Options D = MandelbrotDemo.Options.defaults();

    @Option(names = "--items", paramLabel = "ROWS", description = "rows streamed (image height; default ${DEFAULT-VALUE})")
    int items = D.rows();

    @Option(names = "--width", paramLabel = "PIXELS", description = "pixels per row (default ${DEFAULT-VALUE})")
    int width = D.width();

    @Option(names = "--work", paramLabel = "MAX_ITERATIONS",
            description = "escape-time limit per pixel (default ${DEFAULT-VALUE})")
    int work = D.maxIterations();

    @Option(names = "--workers", paramLabel = "N", description = "widest farm, max(2, cores) (default ${DEFAULT-VALUE})")
    int workers = D.maxWorkers();

    @Option(names = "--rounds", paramLabel = "N",
            description = "timed rounds after the warm-up; each run reports its fastest (default ${DEFAULT-VALUE})")
    int rounds = D.rounds();

    @Option(names = "--no-progress", description = "no progress lines")
    boolean noProgress;

    @Override
    public Integer call() {
        atLeast("--items", items, 1);
        atLeast("--width", width, 1);
        atLeast("--work", work, 1);
        atLeast("--workers", workers, 1);
        atLeast("--rounds", rounds, 1);
        return MandelbrotDemo.main(new MandelbrotDemo.Options(items, width, work, workers, !noProgress, rounds), out);
    }
}
