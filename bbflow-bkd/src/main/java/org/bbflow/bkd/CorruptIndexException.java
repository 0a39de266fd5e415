package org.bbflow.bkd;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file of an index directory failed verification on open: wrong magic number or format
 * version, a checksum that does not match the contents, or a length that does not fit its header
 * (a truncated or overwritten file). The message names the file. {@link BkdTree.Builder#build()}
 * reports it as the cause of a {@link java.io.UncheckedIOException}.
 */
public final class CorruptIndexException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The damaged file. */
    private final transient Path file;

    /**
     * Creates the exception.
     *
     * @param file the damaged file
     * @param detail what is wrong with it
     */
    public CorruptIndexException(Path file, String detail) {
        super("corrupt index file " + file + ": " + detail);
        this.file = file;
    }

    /**
     * The damaged file.
     *
     * @return the path of the file that failed verification
     */
    public Path file() {
        return file;
    }
}
