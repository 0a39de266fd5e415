package org.bbflow.bkd;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Another {@link BkdTree}, in this process or in another one, holds the {@code write.lock} of the
 * index directory. Only one open index may use a directory at a time; the lock is released by
 * {@link BkdTree#close()} or when the holding process dies. {@link BkdTree.Builder#build()}
 * reports it as the cause of a {@link java.io.UncheckedIOException}.
 */
public final class IndexLockedException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The locked directory. */
    private final transient Path directory;

    /**
     * Creates the exception.
     *
     * @param directory the index directory whose lock is held
     * @param detail who holds it, if known
     */
    public IndexLockedException(Path directory, String detail) {
        super("index directory " + directory + " is locked: " + detail);
        this.directory = directory;
    }

    /**
     * The locked directory.
     *
     * @return the index directory whose {@code write.lock} is held by another open index
     */
    public Path directory() {
        return directory;
    }
}
