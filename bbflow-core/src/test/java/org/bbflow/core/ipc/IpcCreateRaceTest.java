package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes calling {@link IpcReceiver#create} on one path at once: exactly one may win, and the
 * other must be refused with a clear error. Before, both could pass the liveness check of the old file
 * before either replaced it, and then both "won": the later one unlinked the earlier one's fresh file,
 * whose receiver was left reading a file no sender could reach any more.
 *
 * <p>Each round starts from a seeded state of the path (absent, a file left by a closed receiver, an
 * empty file), sends both peers their {@code CREATE} with seeded spins, and in half the rounds makes
 * each create that decides to replace the file wait at {@link IpcFile#beforeReplace} until the other
 * peer has either been refused or reached that point too: the widest window the race can have, so
 * the old code failed the first such round. The outcome is asserted, never a timing: exactly one
 * {@code WON}, the other {@code REFUSED} naming the path, and the file at the path is the winner's
 * (a record sent to it reaches the winner). Rerun a seed with {@code -Dipc.race.seed=N}.
 */
class IpcCreateRaceTest {
    /** Rounds per run ({@code -Dipc.race.rounds=N} for a longer run). */
    private static final int ROUNDS = Integer.getInteger("ipc.race.rounds", 40);

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void twoProcessesCreatingOnePathAtOnceExactlyOneWinsTheOtherIsRefused() throws Exception {
        long seed = Long.getLong("ipc.race.seed", System.nanoTime());
        System.out.println("IpcCreateRaceTest seed " + seed + " (rerun: -Dipc.race.seed=" + seed + ")");
        Random rnd = new Random(seed);
        Path file = dir.resolve("race.ipc");
        int refusedLive = 0;
        int refusedCreating = 0;
        try (CreateRacePeer a = new CreateRacePeer(); CreateRacePeer b = new CreateRacePeer()) {
            CreateRacePeer[] peers = {a, b};
            assertEquals("READY", a.line());
            assertEquals("READY", b.line());
            for (int round = 0; round < ROUNDS; round++) {
                int state = rnd.nextInt(3);
                if (state == 0) {
                    Files.deleteIfExists(file);
                } else if (state == 1) {
                    if (!Files.exists(file) || Files.size(file) == 0) {
                        Files.deleteIfExists(file);
                        IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096)).close();
                    } // else: the file the last round's winner closed
                } else {
                    Files.deleteIfExists(file);
                    Files.createFile(file);
                }
                boolean hooked = rnd.nextBoolean();
                int first = rnd.nextInt(2);
                String what = "round " + round + " (seed " + seed + ", path " + (state == 0 ? "absent" : state == 1
                    ? "a closed receiver's file" : "an empty file") + (hooked ? ", both held at the hook" : "") + ")";
                CreateRacePeer p0 = peers[first];
                CreateRacePeer p1 = peers[1 - first];
                p0.send("CREATE " + file + " " + (hooked ? 1 : 0) + " " + rnd.nextInt(200_000));
                p1.send("CREATE " + file + " " + (hooked ? 1 : 0) + " " + rnd.nextInt(200_000));
                // Each peer says one line without further input: WON, REFUSED, or DECIDED (held at the
                // hook, waiting for GO). Only then are the held ones let go, one at a time.
                String[] result = {p0.line(), p1.line()};
                CreateRacePeer[] order = {p0, p1};
                for (int i = 0; i < 2; i++) {
                    if (result[i].equals("DECIDED")) {
                        order[i].send("GO");
                        result[i] = order[i].line();
                    }
                }
                String results = order[0] + ": " + result[0] + " | " + order[1] + ": " + result[1];
                long won = Arrays.stream(result).filter("WON"::equals).count();
                assertEquals(1, won, what + ": exactly one create must win: " + results);
                int w = result[0].equals("WON") ? 0 : 1;
                String refusal = result[1 - w];
                assertTrue(refusal.startsWith("REFUSED ") && refusal.contains("refusing to replace " + file),
                    what + ": the loser must be refused, naming the path: " + results);
                if (refusal.contains("a live receiver holds it")) {
                    refusedLive++;
                } else {
                    refusedCreating++;
                }
                // The file at the path is the winner's: a record sent to it reaches the winner.
                try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                    tx.send((long) round);
                }
                order[w].send("TAKE");
                assertEquals("TOOK " + round, order[w].line(), what + ": " + results);
                order[w].send("CLOSE");
                assertEquals("CLOSED", order[w].line());
            }
            for (CreateRacePeer p : peers) {
                p.send("EXIT");
                assertTrue(p.process.waitFor(30, TimeUnit.SECONDS), p + " did not exit");
                assertEquals(0, p.process.exitValue(), p + " exit code");
            }
        }
        System.out.println("IpcCreateRaceTest: " + ROUNDS + " rounds, one winner each; the loser found a live receiver "
            + refusedLive + " times, a create under way " + refusedCreating + " times");
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
            assertEquals(List.of("race.ipc"), names, "no temporary file is left behind");
        }
    }
    /**
     * A create that opened the file at the path, and takes its lock only after another process
     * replaced that file (its lock then free, the file unlinked), must look again rather than replace
     * the other's fresh file: without the second look at the path it "won" too.
     */
    @Test
    @Timeout(120)
    void aCreateThatOpenedTheOldFileBeforeAnotherReplacedItLooksAgainAndIsRefused() throws Exception {
        Path file = dir.resolve("late.ipc");
        IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096)).close(); // an earlier run's
        try (CreateRacePeer late = new CreateRacePeer(); CreateRacePeer early = new CreateRacePeer()) {
            assertEquals("READY", late.line());
            assertEquals("READY", early.line());
            late.send("CREATE " + file + " 2 0");
            assertEquals("OPENED", late.line());   // it has the old file open, not yet locked
            early.send("CREATE " + file + " 0 0");
            assertEquals("WON", early.line());     // replaced the old file, released its lock
            late.send("GO");
            String refusal = late.line();
            assertTrue(refusal.startsWith("REFUSED ") && refusal.contains("refusing to replace " + file)
                && refusal.contains("a live receiver holds it (process " + early.process.pid() + ")"), refusal);
            try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                tx.send(11L);
            }
            early.send("TAKE");
            assertEquals("TOOK 11", early.line());
            early.send("CLOSE");
            assertEquals("CLOSED", early.line());
            for (CreateRacePeer p : new CreateRacePeer[] {late, early}) {
                p.send("EXIT");
                assertTrue(p.process.waitFor(30, TimeUnit.SECONDS), p + " did not exit");
                assertEquals(0, p.process.exitValue(), p + " exit code");
            }
        }
    }
}
