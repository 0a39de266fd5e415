package org.bbflow.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.bbflow.bkd.IndexCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code bkd-check}: verifies an index directory without opening it for writing. */
@Command(name = "bkd-check", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Check a Bkd-tree index directory (read only), as Lucene's CheckIndex.",
            "Verifies the commit point (MANIFEST) and every file it lists: header, index id, commit, length,"
                + " checksum, and each tree's structure and boxes. Takes no lock and writes nothing. Prints one"
                + " line per file; exit status 0 if the index is intact, 1 if a file is damaged or missing, or if the"
                + " directory holds no index at all (no MANIFEST and no index file: the verdict reads NO INDEX)."})
final class BkdCheckCommand extends Subcommand {
    @Parameters(index = "0", paramLabel = "DIR", description = "the index directory")
    Path directory;

    @Override
    public Integer call() throws IOException {
        // A run error (status 1, one line), as a missing input file is for the other commands. A path
        // that does not exist was once reported "not a directory", as if something were there.
        if (!Files.exists(directory)) {
            throw new NoSuchFileException(directory.toString(), null, "no such directory");
        }
        if (!Files.isDirectory(directory)) {
            throw new NoSuchFileException(directory.toString(), null, "not a directory");
        }
        IndexCheck check = IndexCheck.run(directory);
        for (String line : check.report()) {
            out.println(line);
        }
        return check.ok() ? 0 : 1;
    }
}
