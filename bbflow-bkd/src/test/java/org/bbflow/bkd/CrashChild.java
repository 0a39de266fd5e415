package org.bbflow.bkd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child JVM of {@link CrashTest}: one session on an index directory, killed by the parent at a
 * random point. Modes:
 * <ul>
 *   <li>{@code work DIR SEED}: prints {@code opened COUNT SUM} with the content it reopened; then
 *       either idles while the merge that starts on open runs, or inserts and deletes with a few
 *       commits, printing {@code committing N COUNT SUM} before and {@code ack N COUNT SUM} after
 *       commit N, where COUNT/SUM digest the content that commit holds (from an in-memory model,
 *       not from the index); finally {@code closing COUNT SUM}, {@code close()}, {@code closed}.</li>
 *   <li>{@code hold DIR}: opens the index, prints {@code open} and waits until stdin ends.</li>
 *   <li>{@code hold-alias DIR ALIAS}: opens the index at DIR, tries it again at ALIAS (another path
 *       to the same directory, a bind mount) and prints {@code refused-alias MESSAGE} (or
 *       {@code opened-alias COUNT}), then prints {@code open} and waits until stdin ends.</li>
 *   <li>{@code stall DIR SEED STEP commit|close}: one acknowledged commit, then a commit (or
 *       close) that stops at STEP of its writes and prints {@code at STEP}.</li>
 *   <li>{@code try DIR}: tries to open the index once; prints {@code locked} if another index holds
 *       it, else {@code opened COUNT} (and closes it again).</li>
 * </ul>
 */
final class CrashChild {
    static final int DIMS = 2;

    private CrashChild() {}

    static BkdTree open(Path dir) {
        return BkdTree.builder(DIMS).directory(dir).bufferSize(64).leafSize(8).mergeFactor(2).build();
    }

    /** Order-independent digest of the live points: {count, sum of point hashes}. */
    static long[] digest(BkdTree t) {
        long[] d = new long[2];
        t.query(Box.all(DIMS), (id, p) -> {
            d[0]++;
            d[1] += hash(p[0], p[1], id);
        });
        return d;
    }

    static long hash(double x, double y, long id) {
        long h = mix(id * 0x9E3779B97F4A7C15L ^ Double.doubleToLongBits(x));
        return mix(h ^ Double.doubleToLongBits(y) * 0xC2B2AE3D27D4EB4FL);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The expected content: a multiset of (x, y, id). */
    private static final class Model {
        record Key(double x, double y, long id) {}

        final Map<Key, Integer> counts = new HashMap<>();
        final List<Key> seen = new ArrayList<>();
        long count;
        long sum;

        void insert(Key k) {
            counts.merge(k, 1, Integer::sum);
            seen.add(k);
            count++;
            sum += hash(k.x, k.y, k.id);
        }

        void delete(Key k) {
            Integer n = counts.remove(k);
            if (n != null) {
                count -= n;
                sum -= n * hash(k.x, k.y, k.id);
            }
        }

        String digest() {
            return count + " " + sum;
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static void work(BkdTree t, Model m, Random r, int ops) {
        for (int i = 0; i < ops; i++) {
            if (r.nextInt(5) > 0 || m.seen.isEmpty()) {
                Model.Key k = new Model.Key(r.nextInt(10), r.nextInt(10), r.nextInt(100));
                t.insert(new double[] {k.x(), k.y()}, k.id());
                m.insert(k);
            } else {
                Model.Key k = r.nextInt(8) == 0
                        ? new Model.Key(-1 - r.nextInt(3), r.nextInt(10), r.nextInt(100))  // matches nothing
                        : m.seen.get(r.nextInt(m.seen.size()));
                t.delete(new double[] {k.x(), k.y()}, k.id());
                m.delete(k);
            }
        }
    }

    /**
     * One acknowledged commit, more work, then a commit (or close) that stops for good at the
     * named step of its writes, printing {@code at STEP}: the parent kills it there.
     */
    private static void stall(Path dir, Random r, String step, boolean inClose) {
        BkdTree t = open(dir);
        Model m = new Model();
        t.query(Box.all(DIMS), (id, p) -> m.insert(new Model.Key(p[0], p[1], id)));
        say("opened " + m.digest());
        work(t, m, r, 300);
        say("committing 1 " + m.digest());
        t.commit();
        say("ack 1 " + m.digest());
        work(t, m, r, 300);
        t.commitSteps = s -> {
            if (s.equals(step)) {
                say("at " + s);
                for (;;) {
                    java.util.concurrent.locks.LockSupport.park();
                }
            }
        };
        if (inClose) {
            say("closing " + m.digest());
            t.close();
            say("closed");
        } else {
            say("committing 2 " + m.digest());
            t.commit();
            say("ack 2 " + m.digest());
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        if (args[0].equals("stall")) {
            stall(dir, new Random(Long.parseLong(args[2])), args[3], args[4].equals("close"));
            return;
        }
        if (args[0].equals("try")) {
            try (BkdTree t = open(dir)) {
                say("opened " + t.count(Box.all(DIMS)));
            } catch (java.io.UncheckedIOException e) {
                say(e.getCause() instanceof IndexLockedException ? "locked" : "failed " + e);
            }
            return;
        }
        if (args[0].equals("hold-alias")) {
            try (BkdTree t = open(dir)) {
                try (BkdTree again = open(Path.of(args[2]))) {
                    say("opened-alias " + again.count(Box.all(DIMS)));
                } catch (java.io.UncheckedIOException e) {
                    say(e.getCause() instanceof IndexLockedException ? "refused-alias " + e.getMessage() : "failed " + e);
                }
                say("open");
                while (System.in.read() >= 0) {
                    // wait for the parent to kill us (or to close stdin)
                }
            }
            return;
        }
        if (args[0].equals("hold")) {
            try (BkdTree t = open(dir)) {
                say("open");
                while (System.in.read() >= 0) {
                    // wait for the parent to kill us (or to close stdin)
                }
            }
            return;
        }
        Random r = new Random(Long.parseLong(args[2]));
        BkdTree t = open(dir);
        Model m = new Model();
        t.query(Box.all(DIMS), (id, p) -> m.insert(new Model.Key(p[0], p[1], id)));
        say("opened " + m.digest());
        if (r.nextInt(4) == 0) {
            Thread.sleep(r.nextInt(100));
            t.awaitMerges();        // the merge that starts by itself on open replaces the reopened trees
            t.reclaimNow();
            say("merged");
        } else {
            int commits = 1 + r.nextInt(4);
            for (int c = 1; c <= commits; c++) {
                work(t, m, r, r.nextInt(400));
                say("committing " + c + " " + m.digest());
                t.commit();
                say("ack " + c + " " + m.digest());
            }
            work(t, m, r, r.nextInt(200));
        }
        say("closing " + m.digest());
        t.close();
        say("closed");
    }
}
