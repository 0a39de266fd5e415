package org.bbflow.bkd;

/**
 * What {@link IndexCheck} found about one file of an index directory.
 *
 * @param name   the file's name in the directory
 * @param kind   {@code "manifest"}, {@code "tree"}, {@code "tombstones"} or {@code "leftover"} (a file
 *               no commit names: what an unfinished commit left, deleted by the next open)
 * @param ok     whether the file passed every check (a leftover is ok: it is not part of the index)
 * @param detail what was verified, or what is wrong
 * @param points points in a tree, tombstones in a tombstone file, files listed by the manifest
 */
public record CheckedFile(String name, String kind, boolean ok, String detail, long points) {

    /**
     * One report line: status, kind, name and detail.
     *
     * @return the line
     */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%-7s %-10s %-26s %s", ok ? "ok" : "DAMAGED", kind, name, detail);
    }
}
