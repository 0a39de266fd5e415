package org.bbflow.bkd;

/**
 * An immutable array of longs stored as one base (the minimum) plus an unsigned delta per value
 * in the narrowest of 0, 1, 2, 3, 4 or 8 bytes that holds the range {@code max - min}. A tree packs
 * its ids and insert sequence numbers this way: sequence numbers only advance on deletes, so a
 * tree built without deletes in between stores them in 0 bytes per point, and ids of up to 16
 * million consecutive points in 3 (little-endian byte triples). Width 8 keeps the values themselves
 * (base 0).
 */
final class PackedLongs {
    /** The widths in bytes a packing may have. */
    static final int[] WIDTHS = {0, 1, 2, 3, 4, 8};

    final long base;
    /** Bytes per value: 0, 1, 2, 3, 4 or 8. */
    final int width;
    final int size;
    private final byte[] bytes;
    private final short[] shorts;
    private final int[] ints;
    private final long[] longs;

    private PackedLongs(long base, int width, int size, byte[] b, short[] s, int[] i, long[] l) {
        this.base = base;
        this.width = width;
        this.size = size;
        this.bytes = b;
        this.shorts = s;
        this.ints = i;
        this.longs = l;
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

    /**
     * Packs the first {@code n} values; keeps {@code values} itself when it has length {@code n}
     * and needs the full width (the caller must not reuse it then, see {@link #keeps}).
     */
    static PackedLongs pack(long[] values, int n) {
        if (n == 0) {
            return new PackedLongs(0, 0, 0, null, null, null, null);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            long v = values[k];
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        int width = widthFor(min, max);
        switch (width) {
            case 0:
                return new PackedLongs(min, 0, n, null, null, null, null);
            case 1: {
                byte[] b = new byte[n];
                for (int k = 0; k < n; k++) {
                    b[k] = (byte) (values[k] - min);
                }
                return new PackedLongs(min, 1, n, b, null, null, null);
            }
            case 2: {
                short[] s = new short[n];
                for (int k = 0; k < n; k++) {
                    s[k] = (short) (values[k] - min);
                }
                return new PackedLongs(min, 2, n, null, s, null, null);
            }
            case 3: {
                byte[] b = new byte[3 * n];
                for (int k = 0, o = 0; k < n; k++, o += 3) {
                    long v = values[k] - min;
                    b[o] = (byte) v;
                    b[o + 1] = (byte) (v >>> 8);
                    b[o + 2] = (byte) (v >>> 16);
                }
                return new PackedLongs(min, 3, n, b, null, null, null);
            }
            case 4: {
                int[] a = new int[n];
                for (int k = 0; k < n; k++) {
                    a[k] = (int) (values[k] - min);
                }
                return new PackedLongs(min, 4, n, null, null, a, null);
            }
            default:
                long[] l = values.length == n ? values : java.util.Arrays.copyOf(values, n);
                return new PackedLongs(0, 8, n, null, null, null, l);
        }
    }

    /** Wraps arrays read from a file (exactly one of them matches {@code width}). */
    static PackedLongs of(long base, int width, int size, byte[] b, short[] s, int[] i, long[] l) {
        return new PackedLongs(width == 8 ? 0 : base, width, size, b, s, i, l);
    }

    /** Whether this packing holds {@code values} itself (full width). */
    boolean keeps(long[] values) {
        return longs == values;
    }

    /** Value {@code k}. */
    long get(int k) {
        switch (width) {
            case 0:
                return base;
            case 1:
                return base + (bytes[k] & 0xFFL);
            case 2:
                return base + (shorts[k] & 0xFFFFL);
            case 3: {
                int o = 3 * k;
                return base + ((bytes[o] & 0xFFL) | (bytes[o + 1] & 0xFFL) << 8 | (bytes[o + 2] & 0xFFL) << 16);
            }
            case 4:
                return base + (ints[k] & 0xFFFF_FFFFL);
            default:
                return longs[k];
        }
    }

    /** Copies all values, unpacked, to {@code dst} from {@code at}. */
    void copyTo(long[] dst, int at) {
        if (width == 8) {
            System.arraycopy(longs, 0, dst, at, size);
            return;
        }
        for (int k = 0; k < size; k++) {
            dst[at + k] = get(k);
        }
    }

    /** Bytes of the packed values (a 16-byte array header included when there is an array). */
    long bytes() {
        return width == 0 ? 0 : 16L + (long) width * size;
    }

    /** Writes the packed values (no base, no width: the tree header holds them). */
    void writeTo(IndexFile.Output out) throws java.io.IOException {
        switch (width) {
            case 0:
                return;
            case 1:
            case 3:
                out.putByteArray(bytes);
                return;
            case 2:
                for (short v : shorts) {
                    out.putShort(v);
                }
                return;
            case 4:
                out.putInts(ints);
                return;
            default:
                out.putLongs(longs, size);
        }
    }

    /** Returns a full-width array to the pool (narrow arrays go to the garbage collector). */
    void release(ArrayPool pool) {
        if (longs != null) {
            pool.give(longs);
        }
    }
}
