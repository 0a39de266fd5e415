package org.bbflow.bkd;

/**
 * How a tree lays out its per-point arrays: in pages of a power-of-two number of points, each page
 * at most {@value #PAGE_BYTES} bytes. A tree of a million points in one flat array per field is
 * what G1 calls a humongous object (half a region or more: 512 KiB with the smallest, 1 MiB
 * regions), placed in whole regions of its own, so up to a region per array is lost after its
 * last byte (2 of 21 MiB for 1M 2-D points with 1 MiB regions, 3 with 2 MiB). Pages of at most
 * 256 KiB stay below the threshold of every region size and are packed like ordinary objects.
 * Point {@code i} lives in page {@code i >>> shift} at index {@code i & mask} (times the values per
 * point); the pages of one tree concatenated are exactly its flat arrays (and its file layout).
 */
final class Pages {
    /** Largest page in bytes (the array header aside): below G1's humongous threshold for any region size. */
    static final int PAGE_BYTES = 256 * 1024;

    private Pages() {}

    /** log2 of the points per page of a tree of {@code dims} dimensions (coordinates are the widest field: 8 bytes each). */
    static int shift(int dims) {
        return 31 - Integer.numberOfLeadingZeros(Math.max(1, PAGE_BYTES / (8 * dims)));
    }

    /** Number of pages holding {@code n} points. */
    static int count(int n, int shift) {
        return (int) (((long) n + (1L << shift) - 1) >>> shift);
    }

    /** Points in page {@code p} of {@code n} points (the last page may be short). */
    static int pointsIn(int p, int n, int shift) {
        return Math.min(1 << shift, n - (p << shift));
    }

    /** The first {@code n} points' coordinates ({@code dims} per point) copied into pages. */
    static long[][] of(long[] flat, int n, int dims, int shift) {
        long[][] pages = new long[count(n, shift)][];
        for (int p = 0; p < pages.length; p++) {
            int len = pointsIn(p, n, shift) * dims;
            pages[p] = new long[len];
            System.arraycopy(flat, (p << shift) * dims, pages[p], 0, len);
        }
        return pages;
    }

    /** Empty pages for {@code n} points of {@code width} longs each (filled by a reader). */
    static long[][] allocate(int n, int width, int shift) {
        long[][] pages = new long[count(n, shift)][];
        for (int p = 0; p < pages.length; p++) {
            pages[p] = new long[pointsIn(p, n, shift) * width];
        }
        return pages;
    }

    /** Copies pages back into one flat array at {@code at} (a merge gathers its inputs so). */
    static void copyTo(long[][] pages, long[] dst, int at) {
        for (long[] page : pages) {
            System.arraycopy(page, 0, dst, at, page.length);
            at += page.length;
        }
    }

    /** Heap of the pages: their contents, a 16-byte header each and the page table. */
    static long bytes(long[][] pages) {
        long b = aligned(16L + 4L * pages.length);
        for (long[] page : pages) {
            b += 16L + 8L * page.length;
        }
        return b;
    }

    /** {@code bytes} rounded up to the JVM's 8-byte object alignment. */
    static long aligned(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
