package org.bbflow.bkd;

/**
 * Encoding of double coordinates as sortable longs (the same bit trick as Lucene's NumericUtils):
 * the signed order of the encoded longs equals {@link Double#compare(double, double)}, so
 * {@code -0.0 < 0.0}, infinities are allowed and NaN is rejected before it gets here.
 */
final class Coordinates {
    /** An encoded value no real coordinate can have (it would be NaN); used to poison reclaimed arrays. */
    static final long POISON = 0x7ff8000000000000L;

    private Coordinates() {}

    static long encode(double v) {
        long bits = Double.doubleToRawLongBits(v);
        return bits ^ ((bits >> 63) & 0x7fffffffffffffffL);
    }

    static double decode(long s) {
        return Double.longBitsToDouble(s ^ ((s >> 63) & 0x7fffffffffffffffL));
    }

    /** Validates {@code point} and encodes it into {@code out[off..off+dims)}. */
    static void encodePoint(double[] point, int dims, long[] out, int off) {
        if (point == null) {
            throw new IllegalArgumentException("point must not be null");
        }
        if (point.length != dims) {
            throw new IllegalArgumentException(
                    "point has " + point.length + " dimensions, this index has " + dims);
        }
        for (int d = 0; d < dims; d++) {
            double v = point[d];
            if (v != v) {
                throw new IllegalArgumentException("NaN coordinate in dimension " + d);
            }
            out[off + d] = encode(v);
        }
    }

    /** Hash of an encoded point and its id (used by tombstones and their Bloom filter). */
    static long hash(long[] coords, int off, int dims, long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        for (int d = 0; d < dims; d++) {
            h = Long.rotateLeft(h ^ (coords[off + d] * 0xC2B2AE3D27D4EB4FL), 31) * 0x165667B19E3779F9L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
