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
    /**
     * The widest farm the demo runs: it runs every width from 1 to {@code --workers} in turn, so N
     * makes N farms and N(N+1)/2 worker threads a round; 100,000 never ended. 256 (or the cores, if
     * more) still shows a farm far wider than the machine.
     */
    static final int MAX_WORKERS = Math.max(256, D.maxWorkers());

    @Option(names = "--items", paramLabel = "ROWS", description = "rows streamed (image height; default ${DEFAULT-VALUE})")
    int items = D.rows();

    @Option(names = "--width", paramLabel = "PIXELS", description = "pixels per row (default ${DEFAULT-VALUE})")
    int width = D.width();

    @Option(names = "--work", paramLabel = "MAX_ITERATIONS",
            description = "escape-time limit per pixel (default ${DEFAULT-VALUE})")
    int work = D.maxIterations();

    @Option(names = "--workers", paramLabel = "N", description = "widest farm: runs farms of 1..N workers in turn;"
            + " N at most 256, or the cores if more (default max(2, cores), ${DEFAULT-VALUE})")
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
        within("--workers", workers, 1, MAX_WORKERS);
        atLeast("--rounds", rounds, 1);
        return MandelbrotDemo.main(new MandelbrotDemo.Options(items, width, work, workers, !noProgress, rounds), out);
    }
}
