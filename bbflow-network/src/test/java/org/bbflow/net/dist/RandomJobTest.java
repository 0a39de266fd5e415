package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ObjLongConsumer;
import org.bbflow.core.AllToAll;
import org.bbflow.core.Block;
import org.bbflow.core.Dispatch;
import org.bbflow.core.Farm;
import org.bbflow.core.FlowException;
import org.bbflow.core.Node;
import org.bbflow.core.Nodes;
import org.bbflow.core.Outbox;
import org.bbflow.core.Pipeline;
import org.bbflow.core.StreamFailure;
import org.bbflow.net.Codec;
import org.bbflow.testing.TestSeed;
import org.bbflow.testing.TestTier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The distributed generator: random jobs of {@link LocalJob} (every group in this JVM, loopback
 * sockets on {@link org.bbflow.testing.FreePorts}' ports), each compared with a sequential model of
 * the same flow, as {@code RandomCompositionTest} does for one JVM (docs/testing.md, "The generator
 * of distributed jobs", lists what it draws and checks).
 *
 * <p>A job is a pipeline of 1 to 3 segments between a source and a sink in the master: a node in
 * the master; a stage placed in a group (two such stages next to each other in groups other than the
 * master's form a linked run); a farm whose workers are spread over 1 to 3 groups (the master's
 * included or not), first-come or ordered, round-robin or on-demand dispatch, failing the job or
 * re-sending a lost worker's tasks; an all-to-all with one side in groups and the other in the
 * master, or (one in three) both sides in groups (the passing side at times partly in the master),
 * by-key or round-robin dispatch, one in three of them closed with {@code feedback()} (the working
 * side halves an item back until it is small); a farm with {@code feedback()} and a pipeline
 * loop of two remote stages, whose worker halves an item back until it is small. Every worker, stage and member
 * maps, drops or multiplies its items. A shape may plant a failure on one value in one segment; kill
 * a group mid-run (one that runs only workers of re-sending farms, each of which keeps a worker
 * elsewhere: the job stays exact; any other: the job fails naming it, unless it had reported); kill
 * a group while the job sets up (before its run, once it bound its server, as the master starts its
 * run, or up to 300 ms after the start); cut the source's stream with a {@code StreamFailure}; turn
 * on the stall timeout; keep an idle group. Three shapes in eight secure the job's connections with
 * a shared secret, TLS ({@link Credentials}) or both.
 *
 * <p>The oracle: the results as a multiset (exactly once: no loss, no duplicate), in sequence where
 * every segment keeps order; a planted failure the model reaches fails the job with the planted
 * cause, and with a {@link GroupFailedException} naming one of the segment's groups where the
 * segment runs only outside the master, having delivered part of the model's result; a killed group's
 * job still gives the model's result with no group but the killed one lost; a shape that
 * docs/distributed.md rules out (an ordered farm that re-sends, a re-sending or ordered farm in a
 * loop) is refused by every group with an {@link IllegalArgumentException}; a group killed in the
 * set-up fails the job with a {@link GroupFailedException} naming it, unless the master had admitted
 * it and it runs only re-sending workers that keep a worker elsewhere (then the model's result, no
 * group but it lost) or it had finished its part; killed before its run, it always fails the job
 * (docs/distributed.md, "A group killed while the job sets up"). A job has a deadline
 * (a hang prints every thread's stack), and after each job every thread it started has ended and
 * every socket it opened is closed (bounded waits).
 *
 * <p>{@code -Dbbflow.cases=N} runs N shapes (default tier 24, long tier 300), following from the
 * test's seed ({@link TestSeed}, root {@code -Dbbflow.seed}); a failure names its shape's seed, and
 * {@code -Dbbflow.shape=S} runs that shape alone ({@code -Dbbflow.repeat=N} N times);
 * {@code -Dbbflow.verbose=true} prints each shape, its outcome, time and the master's failure.
 */
@Timeout(3600)
class RandomJobTest {
    static final int CASES = Integer.getInteger("bbflow.cases", TestTier.pick(24, 300));
    static final Duration DEADLINE = Duration.ofSeconds(Long.getLong("bbflow.shapeDeadline", 40));
    static final Codec<Long> LONGS = Codec.longs();

    // ---- what a worker does -----------------------------------------------------------------

    /** Maps, drops or multiplies an item; throws on {@code failOn} where planted. */
    record Fn(int kind, long a, long b) {
        static Fn random(SplittableRandom r) {
            int kind = r.nextInt(10) < 5 ? 0 : r.nextInt(10) < 5 ? 1 : 2;
            return new Fn(kind, 1 + r.nextInt(3), kind == 1 ? 2 + r.nextInt(4) : 1 + r.nextInt(3));
        }

        void apply(long x, List<Long> out) {
            switch (kind) {
                case 0 -> out.add(a * x + b);             // map
                case 1 -> {                                // drop x when x % b == 0
                    if (x % b != 0) {
                        out.add(x);
                    }
                }
                default -> {                               // multiply: b + 1 results
                    for (int j = 0; j <= b; j++) {
                        out.add(10 * x + j);
                    }
                }
            }
        }

        Node<Long, Long> node(long failOn) {
            return Nodes.flatMap((Long x, Outbox<Long> o) -> {
                if (x == failOn) {
                    throw new Planted(x);
                }
                List<Long> r = new ArrayList<>(4);
                apply(x, r);
                for (long y : r) {
                    o.send(y);
                }
            });
        }

        @Override
        public String toString() {
            return kind == 0 ? a + "x+" + b : kind == 1 ? "drop%" + b : "x" + (b + 1);
        }
    }

    /** The failure a planted worker throws. */
    static final class Planted extends RuntimeException {
        Planted(long x) {
            super("planted failure on " + x);
        }
    }

    // ---- segments -----------------------------------------------------------------------------

    enum Kind { LOCAL, STAGE, FARM, A2A, LOOP, PLOOP }

    /** One segment of the job's pipeline. */
    static final class Seg {
        Kind kind;
        Fn fn;
        String group;            // STAGE
        List<String> placement;  // FARM, LOOP: each worker's group; A2A: the remote side's members
        boolean ordered;         // FARM, LOOP
        boolean onDemand;        // FARM
        int window;              // FARM: ordered(window) when above 0
        String tail;             // PLOOP: the tail stage's group (group: the head's)
        boolean resend;          // FARM, LOOP
        boolean remoteLeft;      // A2A: the left side in groups (else the right side)
        int masterSide;          // A2A: members of the master's side
        boolean byKey;           // A2A
        boolean loop;            // A2A: with feedback(); the remote side halves an item back until it is small
        List<String> other;      // A2A: both sides in groups: the other side's members (null: that side is the master's)
        long failOn = Long.MIN_VALUE;

        Set<String> groups() {
            return kind == Kind.STAGE ? Set.of(group) : kind == Kind.PLOOP ? new LinkedHashSet<>(List.of(group, tail))
                    : placement == null ? Set.of("m") : other == null ? new LinkedHashSet<>(placement)
                    : new LinkedHashSet<>(both());
        }

        /** An all-to-all's members of both sides (working side first). */
        private List<String> both() {
            List<String> all = new ArrayList<>(placement);
            all.addAll(other);
            return all;
        }

        boolean onlyRemote() {
            return !groups().contains("m") && kind != Kind.LOCAL;
        }

        /** What docs/distributed.md rules out for this segment (null: allowed). */
        String refusal() {
            boolean remote = placement != null && placement.stream().anyMatch(g -> !g.equals("m"));
            if (kind == Kind.FARM && ordered && resend && remote) {
                return "an ordered farm that re-sends";
            }
            if (kind == Kind.LOOP && resend) {
                return "a re-sending farm in a loop";
            }
            if (kind == Kind.LOOP && ordered && remote) {
                return "an ordered farm in a loop";
            }
            return null;
        }

        boolean keepsOrder() {
            return switch (kind) {
                case LOCAL, STAGE -> true;
                case FARM -> ordered;
                case A2A -> !loop && (other == null ? masterSide : other.size()) == 1 && placement.size() == 1;
                case LOOP, PLOOP -> false;
            };
        }

        /** The model: what the segment makes of {@code in} (in order where it keeps order); null when a planted failure is reached. */
        List<Long> apply(List<Long> in) {
            List<Long> out = new ArrayList<>();
            for (long x : in) {
                if (kind == Kind.LOOP || kind == Kind.PLOOP || kind == Kind.A2A && loop) {
                    long v = x;
                    while (true) {
                        if (v == failOn) {
                            return null;
                        }
                        if (v <= 64) {
                            fn.apply(v, out);
                            break;
                        }
                        v = v / 2;
                    }
                } else {
                    if (x == failOn) {
                        return null;
                    }
                    fn.apply(x, out);
                }
            }
            return out;
        }

        @SuppressWarnings("unchecked")
        Block<Long, Long> build(DistributedJob job, String name) {
            long f = failOn;
            Fn w = fn;
            return switch (kind) {
                case LOCAL -> w.node(f);
                case STAGE -> job.stage(name, () -> w.node(f), LONGS, LONGS, group);
                case FARM -> {
                    Farm<Long, Long> farm = job.farm(name, () -> w.node(f), LONGS, LONGS,
                            Placement.of(placement.toArray(String[]::new)), resend ? WorkerLoss.RESEND_TASKS : WorkerLoss.FAIL_JOB);
                    if (onDemand) {
                        farm.dispatch(Dispatch.onDemand());
                    }
                    yield !ordered ? farm : window > 0 ? farm.ordered(window) : farm.ordered();
                }
                case A2A -> {
                    if (loop) {
                        yield a2aLoop(job, name, w, f);
                    }
                    List<Block<Long, Long>> remote = job.members(name, () -> w.node(f), LONGS, LONGS,
                            Placement.of(placement.toArray(String[]::new)));
                    List<Block<Long, Long>> local = new ArrayList<>();
                    if (other != null) {      // the other side in groups too: members that pass items on
                        local.addAll(job.members(name + "o", Nodes::<Long>identity, LONGS, LONGS,
                                Placement.of(other.toArray(String[]::new))));
                    }
                    for (int i = 0; other == null && i < masterSide; i++) {
                        local.add(Nodes.identity());
                    }
                    AllToAll<Long, Long> a2a = remoteLeft ? AllToAll.<Long, Long>of(remote, local) : AllToAll.<Long, Long>of(local, remote);
                    yield byKey ? a2a.dispatch(Dispatch.byKey((Long x) -> x % 7)) : a2a;
                }
                case PLOOP -> {
                    Block<Long, Long> head = job.stage(name + "h", Nodes::<Long>identity, LONGS, LONGS, group);
                    Block<Long, Long> back = job.stage(name + "t", () -> halving(w, f), LONGS, LONGS, tail);
                    yield Pipeline.<Long, Long>of(head, back).feedback();
                }
                case LOOP -> {
                    Farm<Long, Long> farm = job.farm(name, () -> halving(w, f), LONGS, LONGS, Placement.of(placement.toArray(String[]::new)),
                            resend ? WorkerLoss.RESEND_TASKS : WorkerLoss.FAIL_JOB);
                    Block<Long, Long> loop = (ordered ? farm.ordered() : farm).feedback();
                    yield loop; // not "yield (Block<...>) ...": javac 17 reads "yield (" as a call
                }
            };
        }

        /**
         * An all-to-all with {@code feedback()}, one side in groups (or both, {@code other}; the
         * passing side's members then run in groups as well): an item goes round between the
         * sides, halved by the remote side, until it is small; then the remote side applies
         * {@code w} and its results leave the loop. Right in groups: the right members halve and
         * {@code send} back (to the left member the item came from) or {@code sendTo} forward; the
         * left members (the master's) pass each item on by the all-to-all's policy. Left in groups:
         * the left members halve, and mark a result that is to leave as {@code -(y + 1)} (every item
         * is positive); the right members (the master's) send a marked item forward, unmarked, and
         * any other back. The planted failure is always on the remote side.
         */
        Block<Long, Long> a2aLoop(DistributedJob job, String name, Fn w, long f) {
            List<Block<Long, Long>> remote = job.members(name, () -> remoteLeft ? leftHalving(w, f) : halvingRight(w, f),
                    LONGS, LONGS, Placement.of(placement.toArray(String[]::new)));
            List<Block<Long, Long>> local = new ArrayList<>();
            if (other != null) {      // the other side in groups too
                local.addAll(job.members(name + "o", () -> !remoteLeft ? Nodes.<Long>identity() : markedForward(), LONGS,
                        LONGS, Placement.of(other.toArray(String[]::new))));
            }
            for (int i = 0; other == null && i < masterSide; i++) {
                local.add(!remoteLeft ? Nodes.identity() : markedForward());
            }
            AllToAll<Long, Long> a2a = remoteLeft ? AllToAll.<Long, Long>of(remote, local) : AllToAll.<Long, Long>of(local, remote);
            // floorMod: a marked (negative) item has a key too
            return (byKey ? a2a.dispatch(Dispatch.byKey((Long x) -> Math.floorMod(x, 7L))) : a2a).feedback();
        }

        /** A right member of an all-to-all loop whose left members work: a marked item leaves the loop unmarked, any other goes back. */
        static Node<Long, Long> markedForward() {
            return Nodes.<Long, Long>flatMap((x, o) -> {
                if (x < 0) {
                    o.sendTo(o.outputCount() - 1, -x - 1);   // forward: leaves the loop
                } else {
                    o.send(x);                               // back to the left member it came from
                }
            });
        }

        /** A right member of an all-to-all loop: halves an item back until it is small, then applies {@code w} and sends the results forward. */
        static Node<Long, Long> halvingRight(Fn w, long f) {
            return halving(w, f, (o, y) -> o.sendTo(o.outputCount() - 1, y)); // forward: leaves the loop
        }

        /** A left member of an all-to-all loop: sends an item halved to the right side until it is small, then its results marked. */
        static Node<Long, Long> leftHalving(Fn w, long f) {
            return halving(w, f, (o, y) -> o.send(-y - 1)); // marked: the right side sends it forward
        }

        /** The loop's worker: halves an item back to the loop's head until it is small, then applies {@code w} and sends the results forward. */
        static Node<Long, Long> halving(Fn w, long f) {
            return halving(w, f, (o, y) -> o.sendTo(1, y)); // forward: leaves the loop
        }

        /**
         * A looping worker: an item over 64 goes back halved ({@code send}: to the loop's head, or the
         * member it came from); a small one is done, and {@code done} sends each of {@code w}'s results on.
         */
        static Node<Long, Long> halving(Fn w, long f, ObjLongConsumer<Outbox<Long>> done) {
            return Nodes.<Long, Long>flatMap((v, o) -> {
                        if (v == f) {
                            throw new Planted(v);
                        }
                        if (v <= 64) {
                            List<Long> r = new ArrayList<>(4);
                            w.apply(v, r);
                            for (long y : r) {
                                done.accept(o, y);
                            }
                        } else {
                            o.send(v / 2);
                        }
                    });
        }

        @Override
        public String toString() {
            String f = failOn == Long.MIN_VALUE ? "" : " failOn=" + failOn;
            return switch (kind) {
                case LOCAL -> "local(" + fn + f + ")";
                case STAGE -> "stage@" + group + "(" + fn + f + ")";
                case PLOOP -> "ploop[" + group + "->" + tail + "](" + fn + f + ")";
                case FARM -> "farm" + placement + (ordered ? " ordered" + (window > 0 ? "(" + window + ")" : "") : "") + (onDemand ? " onDemand" : "")
                        + (resend ? " RESEND" : "") + "(" + fn + f + ")";
                case A2A -> "a2a " + (remoteLeft ? "left" + placement + " x " + (other != null ? "right" + other : masterSide + "@m")
                        : (other != null ? "left" + other : masterSide + "@m") + " x right" + placement) + (byKey ? " byKey" : "") + (loop ? " loop" : "") + "(" + fn + f + ")";
                case LOOP -> "loop" + placement + (ordered ? " ordered" : "") + (resend ? " RESEND" : "") + "(" + fn + f + ")";
            };
        }
    }

    static final String[] SETUP_PHASES = {"before its run", "once bound", "as the master starts", "after"};

    /** One random job. */
    static final class Shape {
        final long seed;
        // draws added after root seed 8 (whether an all-to-all loops) come from this second stream,
        // so every other draw stays as it was under a shape's seed: a shape found before is the same
        // but for an all-to-all that now may loop
        final SplittableRandom later;
        // draws added after root seed 12 (an all-to-all's other side in groups, a kill during set-up,
        // the job's secret or TLS) come from a third stream, for the same reason
        final SplittableRandom newer;
        final List<String> groups = new ArrayList<>();
        final List<Seg> segs = new ArrayList<>();
        final List<Long> items = new ArrayList<>();
        String kill;          // a group to kill mid-run
        boolean cut;          // the source ends its stream with a StreamFailure after its items
        boolean stall;        // the job has a stall timeout (every group marks where a task's results end)
        boolean fatalKill;    // the killed group runs a block that does not survive a loss: the job must fail naming it
        String idle;          // a group no farm, stage or member places anything in
        long killAt;          // after this many results reached the master's sink
        String setupKill;     // a group killed while the job sets up (see setupPhase)
        int setupPhase;       // 0: before its run; 1: once it bound its server; 2: as the master starts its run; 3: setupDelay ms after the start
        int setupDelay;       // phase 3: milliseconds after the job's start
        int security;         // 0: none; 1: a shared secret; 2: TLS; 3: both

        Shape(long seed) {
            this.seed = seed;
            SplittableRandom r = new SplittableRandom(seed);
            later = new SplittableRandom(~seed);
            newer = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
            int nGroups = 2 + r.nextInt(3);          // m and 1 to 3 worker groups
            groups.add("m");
            for (int i = 1; i < nGroups; i++) {
                groups.add("w" + i);
            }
            int n = r.nextInt(10) == 0 ? r.nextInt(3) : 1 + r.nextInt(r.nextBoolean() ? 200 : 3_000);
            for (int i = 0; i < n; i++) {
                items.add(1 + (long) r.nextInt(r.nextBoolean() ? 100 : 100_000));
            }
            stall = r.nextInt(4) == 0;
            int nSegs = 1 + r.nextInt(3);
            for (int i = 0; i < nSegs; i++) {
                segs.add(segment(r));
            }
            trimForTurnTakingFarms();
            Set<String> used = new HashSet<>();
            for (Seg s : segs) {
                if (s.kind != Kind.LOCAL) {
                    used.addAll(s.groups());
                }
            }
            List<String> unused = groups.stream().filter(g -> !g.equals("m") && !used.contains(g)).toList();
            if (!unused.isEmpty() && r.nextInt(10) == 0) {
                idle = unused.get(0);                 // kept: a group that runs nothing fails the job
            }
            groups.removeIf(g -> !g.equals("m") && !used.contains(g) && !g.equals(idle));
            if (idle != null) {
                return;
            }
            int sec = newer.nextInt(8);
            security = sec < 3 ? sec + 1 : 0;
            boolean killInSetup = newer.nextInt(10) == 0;
            String setupGroup = groups.size() > 1 ? anyGroup(newer, false) : null;
            int phase = newer.nextInt(4);
            int delay = newer.nextInt(300);
            if (r.nextInt(4) == 0) {                  // a planted failure on a value the segment may see
                Seg s = segs.get(r.nextInt(nSegs));
                s.failOn = r.nextBoolean() && !items.isEmpty() ? items.get(r.nextInt(items.size())) : 1 + r.nextInt(200);
            } else if (r.nextInt(6) == 0) {
                cut = true;
            } else if (r.nextBoolean()) {
                chooseKill(r);
            }
            if (killInSetup && failing() == null && !cut && kill == null && refusal() == null && groups.contains(setupGroup)) {
                setupKill = setupGroup;
                setupPhase = phase;
                setupDelay = delay;
            }
        }

        /**
         * An ordered farm's remote worker has one task in flight (its stand-in waits for the task's
         * end-of-task mark; docs/distributed.md, "Ordered farms across groups"), and the reorder
         * window bounds the tasks in flight over all workers: such a farm takes about 2 ms per task on
         * this host and task in flight (measured 2026-11-28 on shape 6209593672458050073: 9,164 tasks
         * through a window of 1 in 17-25 s, with or without TLS). That shape, 2,291 items and a stage
         * multiplying them by 4 before the farm, passed the 40 s deadline on a loaded CI machine: a
         * slow shape, not a hang (cut to 500 items it takes 7-9 s, the job's set-up included). So the
         * items are cut until each such farm gets at most 2,000 tasks per task it may have in flight.
         * Draws no random number: every other shape keeps its seed.
         */
        private void trimForTurnTakingFarms() {
            long reaching = 1;   // tasks reaching the segment per item of the source, at most
            long cap = Long.MAX_VALUE;
            for (Seg s : segs) {
                if (s.kind == Kind.FARM && s.ordered) {
                    int workers = s.placement.size();
                    long inFlight = s.window > 0 ? Math.min(s.window, workers) : workers;
                    cap = Math.min(cap, 2_000 * inFlight / reaching);
                }
                if (s.fn.kind() == 2) {
                    reaching *= s.fn.b() + 1;
                }
            }
            if (items.size() > cap) {
                items.subList((int) Math.max(cap, 1), items.size()).clear();
            }
        }

        private String anyGroup(SplittableRandom r, boolean master) {
            return master ? groups.get(r.nextInt(groups.size())) : groups.get(1 + r.nextInt(groups.size() - 1));
        }

        private List<String> placement(SplittableRandom r, boolean master, int max) {
            int workers = 1 + r.nextInt(max);
            List<String> p = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                p.add(anyGroup(r, master));
            }
            if (p.stream().allMatch(g -> g.equals("m"))) {
                p.set(r.nextInt(workers), anyGroup(r, false));   // at least one worker outside the master
            }
            return p;
        }

        private Seg segment(SplittableRandom r) {
            Seg s = new Seg();
            s.fn = Fn.random(r);
            int k = r.nextInt(20);
            s.kind = k < 2 ? Kind.LOCAL : k < 7 ? Kind.STAGE : k < 13 ? Kind.FARM : k < 16 ? Kind.A2A : k < 18 ? Kind.LOOP
                    : Kind.PLOOP;
            switch (s.kind) {
                case STAGE -> s.group = anyGroup(r, r.nextInt(5) == 0);
                case FARM -> {
                    s.placement = placement(r, r.nextBoolean(), 5);
                    s.ordered = r.nextInt(3) == 0;
                    s.onDemand = r.nextInt(3) == 0;
                    s.window = r.nextInt(3) == 0 ? 1 + r.nextInt(4) : 0;
                    s.resend = r.nextInt(20) < (s.ordered ? 2 : 12);
                }
                case A2A -> {
                    s.placement = placement(r, false, 3);
                    s.masterSide = 1 + r.nextInt(2);
                    s.remoteLeft = r.nextBoolean();
                    s.byKey = r.nextBoolean();
                    s.loop = later.nextInt(3) == 0;
                    if (newer.nextInt(3) == 0) {   // both sides in groups (the other one the master's too, at times)
                        s.other = placement(newer, newer.nextInt(4) == 0, 3);
                    }
                }
                case PLOOP -> {
                    s.group = anyGroup(r, r.nextInt(4) == 0);
                    s.tail = anyGroup(r, r.nextInt(4) == 0);
                }
                case LOOP -> {
                    s.placement = placement(r, r.nextBoolean(), 4);
                    s.ordered = r.nextInt(12) == 0;
                    s.resend = r.nextInt(12) == 0;
                }
                default -> { }
            }
            return s;
        }

        /** A group that runs only workers of re-sending farms, each of which keeps a worker elsewhere. */
        private void chooseKill(SplittableRandom r) {
            List<String> candidates = survivable();
            List<String> fatal = new ArrayList<>(groups.subList(1, groups.size()));
            fatal.removeAll(candidates);
            if (!fatal.isEmpty() && r.nextInt(4) == 0 && refusal() == null) {
                kill = fatal.get(r.nextInt(fatal.size()));
                fatalKill = true;
                List<Long> expected = model();
                killAt = expected == null || expected.isEmpty() ? 0 : r.nextInt(Math.max(1, expected.size() / 2));
            } else if (!candidates.isEmpty() && refusal() == null) {
                kill = candidates.get(r.nextInt(candidates.size()));
                List<Long> expected = model();
                killAt = expected == null || expected.isEmpty() ? 0 : r.nextInt(Math.max(1, expected.size() / 2));
            }
        }

        /** The groups whose loss the job survives: they run only workers of re-sending farms, each of which keeps a worker elsewhere. */
        List<String> survivable() {
            List<String> candidates = new ArrayList<>();
            for (String g : groups.subList(1, groups.size())) {
                boolean used = false;
                boolean ok = true;
                for (Seg s : segs) {
                    if (!s.groups().contains(g) || s.kind == Kind.LOCAL) {
                        continue;
                    }
                    used = true;
                    ok &= s.kind == Kind.FARM && s.resend && !s.ordered && s.placement.stream().anyMatch(o -> !o.equals(g));
                }
                if (used && ok) {
                    candidates.add(g);
                }
            }
            return candidates;
        }

        String refusal() {
            for (Seg s : segs) {
                if (s.refusal() != null) {
                    return s.refusal();
                }
            }
            return null;
        }

        /** The names of the segments the guide rules out (a refusal must name one: it names the block). */
        List<String> refusedNames() {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < segs.size(); i++) {
                if (segs.get(i).refusal() != null) {
                    names.add("s" + i);
                }
            }
            return names;
        }

        /** The model's result, or null when a planted failure is reached (see {@link #failing()}). */
        List<Long> model() {
            List<Long> v = items;
            for (Seg s : segs) {
                v = s.apply(v);
                if (v == null) {
                    return null;
                }
            }
            return v;
        }

        /** The segment whose planted failure the model reaches, or null. */
        Seg failing() {
            List<Long> v = items;
            for (Seg s : segs) {
                v = s.apply(v);
                if (v == null) {
                    return s;
                }
            }
            return null;
        }

        /** The model's result before the failing segment's planted value and what may pass it: an upper bound of what the sink sees. */
        List<Long> bound() {
            List<Long> v = items;
            for (Seg s : segs) {
                if (v == null) {
                    return null;
                }
                long f = s.failOn;
                s.failOn = Long.MIN_VALUE;
                v = s.apply(v);
                s.failOn = f;
            }
            return v;
        }

        boolean ordered() {
            return segs.stream().allMatch(Seg::keepsOrder);
        }

        /** What the shape draws of the later additions, for the run's summary. */
        List<String> features() {
            List<String> f = new ArrayList<>();
            for (Seg s : segs) {
                if (s.kind == Kind.A2A && s.other != null) {
                    f.add(s.loop ? "a2a both sides in groups, loop" : "a2a both sides in groups");
                }
            }
            if (security != 0) {
                f.add(security == 1 ? "secret" : security == 2 ? "TLS" : "secret+TLS");
            }
            if (setupKill != null) {
                f.add("kill in set-up");
            }
            return f;
        }

        @Override
        public String toString() {
            return "groups " + groups + (idle == null ? "" : " (" + idle + " idle)") + ", " + items.size() + " items, " + segs + (stall ? ", stall timeout" : "") + (cut ? ", cut" : "") + (kill == null ? "" : ", kill " + (fatalKill ? "(fatal) " : "") + kill
                    + " after " + killAt + " results") + (setupKill == null ? "" : ", kill " + setupKill + " in set-up "
                    + SETUP_PHASES[setupPhase] + (setupPhase == 3 ? " " + setupDelay + " ms" : ""))
                    + (security == 0 ? "" : security == 1 ? ", secret" : security == 2 ? ", TLS" : ", secret+TLS");
        }
    }

    // ---- running a shape ------------------------------------------------------------------------

    @Test
    void randomJobsMatchTheSequentialModel() {
        String one = System.getProperty("bbflow.shape");
        if (one != null && !one.isBlank()) {
            for (int i = Integer.getInteger("bbflow.repeat", 1); i > 0; i--) {   // a race may need several runs
                run(new Shape(Long.parseLong(one.trim())));
            }
            return;
        }
        long start = System.nanoTime();
        Map<String, Integer> outcomes = new TreeMap<>();
        Map<String, Integer> features = new TreeMap<>();
        for (int i = 0; i < CASES; i++) {
            Shape shape = new Shape(TestSeed.mix(i));
            String o = run(shape);
            outcomes.merge(o, 1, Integer::sum);
            shape.features().forEach(f -> features.merge(f, 1, Integer::sum));
        }
        System.out.printf("RandomJobTest: root seed %d, %d shapes in %.1f s: %s; features %s%n", TestSeed.root(), CASES,
                (System.nanoTime() - start) / 1e9, outcomes, features);
    }

    /** Runs one shape and checks it against the model; returns what kind of outcome it had. */
    static String run(Shape shape) {
        try {
            long t0 = System.nanoTime();
            String outcome = check(shape);
            if (Boolean.getBoolean("bbflow.verbose")) {
                String why = LAST_FAILURE.get() == null ? "" : LAST_FAILURE.get().lines().findFirst().orElse("");
                System.out.printf("shape %d: %s: %s, %.1f s%s%n", shape.seed, shape, outcome, (System.nanoTime() - t0) / 1e9,
                        why.isEmpty() ? "" : "\n    " + why.substring(0, Math.min(400, why.length())));
            }
            return outcome;
        } catch (AssertionError | RuntimeException e) {
            AssertionError a = new AssertionError("shape " + shape.seed + " failed (rerun: -Dbbflow.shape=" + shape.seed
                    + "): " + shape + ": " + e.getMessage(), e);
            System.err.println(a.getMessage());
            throw a;
        }
    }

    static final String CUT = "the master's source cut its stream";

    private static final AtomicInteger JOBS = new AtomicInteger();
    /** The master's failure in the last shape run (for -Dbbflow.verbose). */
    private static final java.util.concurrent.atomic.AtomicReference<String> LAST_FAILURE = new java.util.concurrent.atomic.AtomicReference<>();

    static String check(Shape shape) {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        long sockets = sockets();
        // a fatal kill fails the job once the group's channels stay down for the peer timeout: keep it short there
        // a group lost for good fails the job once its channels stay down for the peer timeout: keep it short there
        JobSpec.Builder b = DistributedJobTest.onSlicePorts(shape.groups.toArray(String[]::new))
                .peerTimeout(Duration.ofSeconds(shape.fatalKill || shape.setupKill != null ? 4 : 15))
                .livenessTimeout(Duration.ofSeconds(1));
        if (shape.stall) {
            b.stallTimeout(Duration.ofSeconds(10));
        }
        if ((shape.security & 1) != 0) {
            b.secretFile(Credentials.secret());
        }
        if ((shape.security & 2) != 0) {
            Path[] tls = Credentials.tls();
            b.tls(tls[0], tls[1], tls[0]);
        }
        JobSpec spec = b.build();
        List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
        String outcome;
        JOBS.incrementAndGet();
        Map<String, DistributedJob> parts = new java.util.concurrent.ConcurrentHashMap<>();
        if (shape.setupKill != null && shape.setupPhase == 1) {
            DistributedJob.afterBindHook = g -> {   // on the group's thread, once its server is bound
                if (g.equals(shape.setupKill)) {
                    parts.get(g).crash();
                }
            };
        }
        LocalJob<Integer> local = LocalJob.start(spec, (DistributedJob job, LocalJob<Integer> running) -> {
            parts.put(job.group(), job);
            if (shape.setupKill != null && shape.setupPhase == 0 && job.group().equals(shape.setupKill)) {
                job.crash();                         // dies before it runs: it never listens
            }
            if (shape.setupKill != null && shape.setupPhase == 2 && job.isMaster()) {
                running.part(shape.setupKill).crash();   // wherever the group is in its set-up
            }
            List<Block<?, ?>> flow = new ArrayList<>();
            flow.add(!shape.cut ? Nodes.fromIterable(shape.items) : Nodes.source((Outbox<Long> o) -> {
                for (long x : shape.items) {
                    o.send(x);
                }
                throw new StreamFailure(new IllegalStateException(CUT));
            }));
            for (int i = 0; i < shape.segs.size(); i++) {
                flow.add(shape.segs.get(i).build(job, "s" + i));
            }
            flow.add(Nodes.sink((Long y) -> {
                delivered.add(y);
                if (shape.kill != null && delivered.size() == shape.killAt + 1 && job.isMaster()) {
                    running.kill(shape.kill);
                }
            }));
            job.run(Pipeline.of(flow.toArray(Block[]::new)));
            return 0;
        });
        Thread setupKiller = null;
        if (shape.setupKill != null && shape.setupPhase == 3) {
            setupKiller = new Thread(() -> {
                java.util.concurrent.locks.LockSupport.parkNanos(shape.setupDelay * 1_000_000L);
                local.part(shape.setupKill).crash();
            }, "random-job-setup-killer");
            setupKiller.start();
        }
        try {
            String refusal = shape.refusal();
            Seg failing = shape.failing();
            RuntimeException failure = null;
            try {
                local.result("m", DEADLINE);
            } catch (RuntimeException e) {
                if (String.valueOf(e.getMessage()).contains("did not end within")) {
                    fail("the master's part hung past " + DEADLINE + "; delivered " + delivered.size() + "\n" + stacks());
                }
                failure = e;
            }
            LAST_FAILURE.set(failure == null ? null : String.valueOf(DistributedJobTest.groupFailure(failure) != null
                    ? DistributedJobTest.groupFailure(failure) : failure));
            if (refusal == null && shape.idle != null) {
                outcome = "idle group";
                // docs/distributed.md, "Write your own distributed job": a group that the job places
                // nothing in fails its part (DistributedJob.runGroup), and with it the job, naming the group
                GroupFailedException g = failure == null ? null : DistributedJobTest.groupFailure(failure);
                if (g == null || !g.group().equals(shape.idle) || !g.getMessage().contains("runs no worker")) {
                    fail("expected the job to fail naming the idle group " + shape.idle + ", but the master "
                            + (failure == null ? "succeeded" : "failed with " + LocalJobTest.messages(failure)));
                }
                awaitGroups(local, shape);
            } else if (refusal != null) {
                outcome = "refused";
                if (failure == null || !(root(failure, IllegalArgumentException.class))) {
                    fail("expected the job to be refused (" + refusal + "), but the master "
                            + (failure == null ? "ran it" : "failed with " + LocalJobTest.messages(failure)));
                }
                for (String g : shape.groups) {
                    try {
                        local.result(g, Duration.ofSeconds(20));
                        fail("group " + g + " ran a job that is refused (" + refusal + ")");
                    } catch (RuntimeException e) {
                        if (String.valueOf(e.getMessage()).contains("did not end within")) {
                            fail("group " + g + " hung on a refused job\n" + stacks());
                        }
                        if (!root(e, IllegalArgumentException.class)) {
                            fail("group " + g + " failed, but not by refusing the job: " + LocalJobTest.messages(e));
                        }
                        String why = LocalJobTest.messages(e);
                        if (shape.refusedNames().stream().noneMatch(why::contains)) {
                            fail("group " + g + " refused the job without naming the block (" + shape.refusedNames() + "): " + why);
                        }
                    }
                }
            } else if (shape.setupKill != null) {
                outcome = "killed in set-up " + SETUP_PHASES[shape.setupPhase];
                String g = shape.setupKill;
                if (failure != null) {
                    // docs/distributed.md, Failures: a master whose group stays away (never joins, or is lost
                    // and does not run only re-sending workers) fails the job naming it
                    GroupFailedException e = DistributedJobTest.groupFailure(failure);
                    if (e == null || !e.groups().contains(g)) {
                        fail("the job failed after " + g + " was killed in its set-up, but " + (e == null
                                ? "with no GroupFailedException" : "naming " + e.groups()) + ": " + LocalJobTest.messages(failure));
                    }
                } else {
                    // docs/distributed.md, "A lost worker": it may succeed only if the master had admitted the
                    // group (which a kill once it bound may or may not precede) and it runs only re-sending
                    // workers that keep a worker elsewhere (lost, its tasks re-sent), or (killed late) had
                    // finished its part; never when it died before it listened (the master admits every
                    // group before its flow starts)
                    boolean finished = groupSucceeded(local, g);
                    if (shape.setupPhase == 0 || !finished && !shape.survivable().contains(g)) {
                        fail("the job succeeded though " + g + " was killed in its set-up (lost "
                                + local.part("m").lostGroups() + ")");
                    }
                    expectModel(shape, snapshot(delivered));
                    Set<String> lost = local.part("m").lostGroups();
                    if (!Set.of(g).containsAll(lost)) {
                        fail("lost groups " + lost + ", killed " + g);
                    }
                    outcome += finished ? " (after its part)" : " (recovered)";
                }
                awaitGroups(local, shape);
            } else if (shape.cut) {
                outcome = "cut";
                // docs/distributed.md, Failures: the cut cancels nothing; every result still reaches the
                // master's sink (in order through strict collectors), and the job fails with the source's error
                if (!(failure instanceof FlowException) || failure.getCause() == null
                        || !CUT.equals(failure.getCause().getMessage())) {
                    fail("the job's failure is not the source's cut: " + (failure == null ? "it succeeded"
                            : LocalJobTest.messages(failure)));
                }
                expectModel(shape, snapshot(delivered));
                awaitGroups(local, shape);
            } else if (shape.fatalKill && shape.killAt < shape.model().size()) {
                outcome = "killed (fatal)";
                // the killed group ran a stage, member, loop or FAIL_JOB worker: the job fails naming it,
                // unless the group had finished its part and reported before the kill
                if (failure != null) {
                    GroupFailedException g = DistributedJobTest.groupFailure(failure);
                    String all = LocalJobTest.messages(failure);
                    if (g == null ? !all.contains(shape.kill) : !g.group().contains(shape.kill)) {
                        fail("the job failed after " + shape.kill + " was killed, but does not name it: " + all);
                    }
                } else {
                    outcome = "killed (fatal, after its part)";
                    List<Long> got = snapshot(delivered);
                    List<Long> expected = shape.model();
                    if (!minus(expected, got).isEmpty() || !minus(got, expected).isEmpty()) {
                        fail("the job succeeded after " + shape.kill + " was killed, but not with the model's results");
                    }
                }
                awaitGroups(local, shape);
            } else if (failing != null) {
                outcome = "failed";
                if (failure == null) {
                    fail("the planted failure on " + failing.failOn + " in " + failing + " is reached, but the job succeeded");
                }
                String all = LocalJobTest.messages(failure);
                if (!all.contains("planted failure on " + failing.failOn)) {
                    fail("the job failed, but not with the planted failure on " + failing.failOn + ": " + all);
                }
                GroupFailedException g = DistributedJobTest.groupFailure(failure);
                if (failing.onlyRemote() && g == null) {
                    fail("the planted failure ran only outside the master, but no GroupFailedException names a group: " + all);
                }
                if (g != null && !failing.groups().contains(g.group())) {
                    fail("the GroupFailedException names " + g.group() + ", not one of " + failing.groups() + ": " + all);
                }
                List<Long> bound = shape.bound();
                if (bound != null) {
                    List<Long> extra = minus(snapshot(delivered), bound);
                    if (!extra.isEmpty()) {
                        fail("delivered results the model never makes (or too often): " + head(extra));
                    }
                }
                awaitGroups(local, shape);
            } else {
                outcome = shape.kill != null ? "killed " : "exact";
                if (failure != null) {
                    fail("the job failed: " + LocalJobTest.messages(failure) + "\n" + stacks());
                }
                List<Long> expected = shape.model();
                expectModel(shape, snapshot(delivered));
                Set<String> lost = local.part("m").lostGroups();
                if (!(shape.kill == null ? Set.of() : Set.of(shape.kill)).containsAll(lost)) {
                    fail("lost groups " + lost + ", killed " + shape.kill);
                }
                if (shape.kill != null && shape.killAt < expected.size()) {
                    outcome += lost.isEmpty() ? "(after its part)" : "(lost)";
                } else if (shape.kill != null) {
                    outcome = "exact";   // never reached the kill
                }
                for (String g : shape.groups) {
                    if (g.equals(shape.kill) && shape.killAt < expected.size()) {
                        continue;
                    }
                    try {
                        local.result(g, Duration.ofSeconds(20));
                    } catch (RuntimeException e) {
                        fail("group " + g + " failed in a job that succeeded: " + LocalJobTest.messages(e) + "\n" + stacks());
                    }
                }
            }
        } finally {
            DistributedJob.afterBindHook = null;
            if (setupKiller != null) {
                try {
                    setupKiller.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            local.close();
        }
        awaitNothingLeft(before, sockets);
        return outcome;
    }

    /** Whether {@code g}'s part ended well (within a bound: a hang fails the test). */
    private static boolean groupSucceeded(LocalJob<?> local, String g) {
        try {
            local.result(g, Duration.ofSeconds(20));
            return true;
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("did not end within")) {
                fail("group " + g + " hung\n" + stacks());
            }
            return false;
        }
    }

    /** {@code got} is the model's result: in sequence where every segment keeps order, else as a multiset. */
    private static void expectModel(Shape shape, List<Long> got) {
        List<Long> expected = shape.model();
        if (shape.ordered()) {
            if (!expected.equals(got)) {
                fail("not the model's sequence: " + firstDifference(expected, got));
            }
        } else {
            List<Long> missing = minus(expected, got);
            List<Long> extra = minus(got, expected);
            if (!missing.isEmpty() || !extra.isEmpty()) {
                fail("not the model's multiset (" + expected.size() + " expected, " + got.size() + " delivered): missing "
                        + head(missing) + ", extra (duplicates or wrong) " + head(extra));
            }
        }
    }

    /** Every group ends (normally or not) within a bound: none hangs after the job's failure. */
    private static void awaitGroups(LocalJob<?> local, Shape shape) {
        for (String g : shape.groups) {
            try {
                local.result(g, Duration.ofSeconds(20));
            } catch (RuntimeException e) {
                if (String.valueOf(e.getMessage()).contains("did not end within")) {
                    fail("group " + g + " hung after the job failed\n" + stacks());
                }
            }
        }
    }

    private static boolean root(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static List<Long> snapshot(List<Long> l) {
        synchronized (l) {
            return new ArrayList<>(l);
        }
    }

    /** {@code a} minus {@code b}, as multisets. */
    static List<Long> minus(List<Long> a, List<Long> b) {
        Map<Long, Integer> count = new java.util.HashMap<>();
        for (long x : b) {
            count.merge(x, 1, Integer::sum);
        }
        List<Long> rest = new ArrayList<>();
        for (long x : a) {
            Integer c = count.get(x);
            if (c == null || c == 0) {
                rest.add(x);
            } else {
                count.put(x, c - 1);
            }
        }
        return rest;
    }

    private static String head(List<Long> l) {
        return l.size() <= 10 ? l.toString() : l.subList(0, 10) + " ... (" + l.size() + ")";
    }

    private static String firstDifference(List<Long> expected, List<Long> got) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            if (!expected.get(i).equals(got.get(i))) {
                return "at " + i + " expected " + expected.get(i) + ", got " + got.get(i) + " (" + expected.size()
                        + " expected, " + got.size() + " delivered)";
            }
        }
        return expected.size() + " expected, " + got.size() + " delivered";
    }

    // ---- nothing left behind ----------------------------------------------------------------------

    /**
     * Open TCP sockets of this JVM (Linux; 0 elsewhere). Unix sockets are not counted: the C library
     * keeps one open to its name service cache after the first lookup, once per process.
     */
    static long sockets() {
        return socketLines().lines().filter(l -> l.startsWith("/proc/net/tcp")).count();
    }

    /** The inodes of this JVM's open sockets ({@code socket:[N]}). */
    static List<String> socketInodes() {
        File[] fds = new File("/proc/self/fd").listFiles();
        List<String> inodes = new ArrayList<>();
        if (fds == null) {
            return inodes;
        }
        for (File f : fds) {
            try {
                String link = Files.readSymbolicLink(Path.of(f.getPath())).toString();
                if (link.startsWith("socket:[")) {
                    inodes.add(link.substring(8, link.length() - 1));
                }
            } catch (Exception gone) {
                // closed while listing
            }
        }
        return inodes;
    }

    /** The kernel's lines (/proc/net/tcp, tcp6) of this JVM's open sockets: local and remote address, state. */
    static String socketLines() {
        Set<String> inodes = new HashSet<>(socketInodes());
        StringBuilder b = new StringBuilder();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6", "/proc/net/unix")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] w = line.trim().split("\\s+");
                    for (String x : w) {
                        if (inodes.contains(x)) {
                            b.append(table).append(": ").append(line.trim()).append('\n');
                            break;
                        }
                    }
                }
            } catch (Exception unreadable) {
                // not Linux
            }
        }
        return b.toString();
    }

    /** Threads of the JDK's own that a job may start lazily and that live on by design. */
    private static boolean jdkThread(Thread t) {
        String n = t.getName();
        return n.startsWith("ForkJoinPool") || n.startsWith("process reaper") || n.startsWith("Common-Cleaner")
                || n.startsWith("Attach Listener") || n.startsWith("JFR") || n.startsWith("surefire")
                || n.startsWith("InnocuousThread") || n.startsWith("CompletableFutureDelayScheduler");
    }

    private static void awaitNothingLeft(Set<Thread> before, long sockets) {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Set<Thread> left;
        long open;
        do {
            left = new HashSet<>(Thread.getAllStackTraces().keySet());
            left.removeAll(before);
            left.removeIf(t -> !t.isAlive() || jdkThread(t));
            open = sockets();
            if (left.isEmpty() && open <= sockets) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        } while (System.nanoTime() < end);
        StringBuilder b = new StringBuilder();
        for (Thread t : left) {
            b.append(t.getName()).append(' ').append(t.getState()).append('\n');
            for (StackTraceElement e : t.getStackTrace()) {
                b.append("    at ").append(e).append('\n');
            }
        }
        fail("left behind after the job: " + left.size() + " threads, " + (open - sockets) + " sockets (" + sockets
                + " before, " + open + " after)\n" + socketLines() + b);
    }

    /** Every thread's stack, for a hang. */
    static String stacks() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, st) -> {
            b.append(t.getName()).append(' ').append(t.getState()).append('\n');
            for (int i = 0; i < Math.min(25, st.length); i++) {
                b.append("    at ").append(st[i]).append('\n');
            }
        });
        return b.toString();
    }
}
