package org.bbflow.examples;

import org.bbflow.examples.thesis.ThesisExamples;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code thesis}: the thesis manual's examples. */
@Command(name = "thesis", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"The thesis manual's examples: pipelines, farms, combine, all-to-all, ordering.",
            "Each is a small flow printing what its nodes see (Appendix A):",
            "  two-stage       source and sink in a pipeline (Code 17)",
            "  manual-channel  the same two stages as two flows joined by a hand-made Channel (Code 16)",
            "  farm-pipeline   source -> farm of 3 doubling workers -> sink (Code 20)",
            "  custom-farm     farm with a generating emitter and a reporting collector (Code 21)",
            "  empty-farm      empty farm given its workers, emitter picks workers itself (Code 22)",
            "  three-stage     a two-stage pipeline extended with a third stage (Code 23)",
            "  combine2        workers of two fused nodes, custom emitter/collector, last stage (Code 26)",
            "  all-to-all      3 left to 2 right members routed by key, no central node (Code 24)",
            "  combine-farms   two farms combined with R and G nodes (Code 25)",
            "  ordered-labels  unordered farm, then a node restoring order from labels (Code 28)"})
final class ThesisCommand extends Subcommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME|all|list", defaultValue = "list",
            description = "an example's name, all of them, or list their names (default ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--items", paramLabel = "N", description = "numbers streamed (default ${DEFAULT-VALUE})")
    int items = 12;

    @Override
    public Integer call() {
        if (!name.equals("all") && !name.equals("list") && !ThesisExamples.names().contains(name)) {
            throw usage("unknown example '" + name + "'; one of: all, list, " + String.join(", ", ThesisExamples.names()));
        }
        atLeast("--items", items, 0);
        return ThesisExamples.main(name, items, out);
    }
}
