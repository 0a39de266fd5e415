package org.bbflow.bkd;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An immutable array of longs stored as one base (the minimum) plus an unsigned delta per value
 * in the narrowest of 0, 1, 2, 3, 4 or 8 bytes that holds the range {@code max - min}. A tree packs
 * its ids and insert sequence numbers this way: sequence numbers only advance on deletes, so a
 * tree built without deletes in between stores them in 0 bytes per point, and ids of up to 16
 * million consecutive points in 3. The deltas live little-endian in byte pages of
 * {@code 2^shift} values each (the tree's {@link Pages} layout), so no array is large enough to be
 * a humongous object; the pages concatenated are exactly the file layout. Width 8 keeps the values
 * themselves (base 0).
 */
final class PackedLongs {
    /** The widths in bytes a packing may have. */
    static final int[] WIDTHS = {0, 1, 2, 3, 4, 8};
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    final long base;
    /** Bytes per value: 0, 1, 2, 3, 4 or 8. */
    final int width;
    final int size;
    private final int shift;
    private final int mask;
    /** {@code width * 2^shift} bytes per page (the last one may be short); empty for width 0. */
    private final byte[][] pages;

    private PackedLongs(long base, int width, int size, int shift, byte[][] pages) {
        this.base = base;
        this.width = width;
        this.size = size;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        this.pages = pages;
    }

    /** The narrowest width (bytes per value) that holds every value of {@code [min, max]} as {@code v - min}. */
    static int widthFor(long min, long max) {
        long range = max - min;     // exact as an unsigned number because max >= min
        if (range == 0) {
            return 0;
        }
        if (Long.compareUnsigned(range, 0xFFL) <= 0) {
            return 1;
        }
        if (Long.compareUnsigned(range, 0xFFFFL) <= 0) {
            return 2;
        }
        if (Long.compareUnsigned(range, 0xFF_FFFFL) <= 0) {
            return 3;
        }
        if (Long.compareUnsigned(range, 0xFFFF_FFFFL) <= 0) {
            return 4;
        }
        return 8;
    }

    /** Packs the first {@code n} values into pages of {@code 2^shift} values. */
    static PackedLongs pack(long[] values, int n, int shift) {
        if (n == 0) {
            return new PackedLongs(0, 0, 0, shift, new byte[0][]);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            long v = values[k];
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        int width = widthFor(min, max);
        long base = width == 8 ? 0 : min;
        PackedLongs p = new PackedLongs(base, width, n, shift, allocate(width, n, shift));
        if (width > 0) {                    // width 0: every value is the base, no pages
            for (int k = 0; k < n; k++) {
                p.set(k, values[k] - base);
            }
        }
        return p;
    }

    /** Empty pages for {@code n} values of {@code width} bytes (a file reader fills them, then {@link #of}). */
    static byte[][] allocate(int width, int n, int shift) {
        if (width == 0) {
            return new byte[0][];
        }
        byte[][] pages = new byte[Pages.count(n, shift)][];
        for (int p = 0; p < pages.length; p++) {
            pages[p] = new byte[Pages.pointsIn(p, n, shift) * width];
        }
        return pages;
    }

    /** Wraps pages read from a file (laid out as {@link #allocate} made them). */
    static PackedLongs of(long base, int width, int size, int shift, byte[][] pages) {
        return new PackedLongs(width == 8 ? 0 : base, width, size, shift, pages);
    }

    private void set(int k, long delta) {
        byte[] page = pages[k >>> shift];
        int o = (k & mask) * width;
        switch (width) {
            case 1:
                page[o] = (byte) delta;
                return;
            case 2:
                SHORTS.set(page, o, (short) delta);
                return;
            case 3:
                page[o] = (byte) delta;
                page[o + 1] = (byte) (delta >>> 8);
                page[o + 2] = (byte) (delta >>> 16);
                return;
            case 4:
                INTS.set(page, o, (int) delta);
                return;
            default:
                LONGS.set(page, o, delta);
        }
    }

    /** Value {@code k}. */
    long get(int k) {
        return get(page(k >>> shift), k & mask);
    }

    /**
     * Page {@code p} of the packed values, for {@link #get(byte[], int)} (null when the width is 0:
     * every value is the base). A reader of a run of points looks their page up once.
     */
    byte[] page(int p) {
        return width == 0 ? null : pages[p];
    }

    /** Value {@code j} of a page {@link #page} returned. */
    long get(byte[] page, int j) {
        int o = j * width;
        switch (width) {
            case 0:
                return base;
            case 1:
                return base + (page[o] & 0xFFL);
            case 2:
                return base + ((short) SHORTS.get(page, o) & 0xFFFFL);
            case 3:
                return base + ((page[o] & 0xFFL) | (page[o + 1] & 0xFFL) << 8 | (page[o + 2] & 0xFFL) << 16);
            case 4:
                return base + ((int) INTS.get(page, o) & 0xFFFF_FFFFL);
            default:
                return (long) LONGS.get(page, o);
        }
    }

    /** Copies all values, unpacked, to {@code dst} from {@code at}. */
    void copyTo(long[] dst, int at) {
        for (int k = 0; k < size; k++) {
            dst[at + k] = get(k);
        }
    }

    /** Bytes of the packed values: each page with its 16-byte header, and the page table. */
    long bytes() {
        if (width == 0) {
            return 0;
        }
        long b = Pages.aligned(16L + 4L * pages.length);
        for (byte[] page : pages) {
            b += Pages.aligned(16L + page.length);
        }
        return b;
    }

    /** Writes the packed values (no base, no width: the tree header holds them). */
    void writeTo(IndexFile.Output out) throws java.io.IOException {
        for (byte[] page : pages) {
            out.putByteArray(page);
        }
    }
}
