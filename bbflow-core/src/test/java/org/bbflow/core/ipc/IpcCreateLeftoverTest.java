package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A create builds its file under a temporary name {@code .<name>.<pid>.<n>.creating} and renames it
 * into place. A process killed ({@code kill -9}) between the two left that file in the user's
 * directory for ever; now the next create on the path removes the leftovers of dead creates (their
 * lock is free), and never a live create's locked file. The child JVM is held at a test hook of
 * {@link IpcFile} (it says where on its stdout, and waits for a line that never comes) and killed
 * there: nothing depends on a sleep. Rerun a seed with {@code -Dipc.leftover.seed=N}.
 */
class IpcCreateLeftoverTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearHooks() {
        IpcFile.afterTempCreated = null;
        IpcFile.afterTempLocked = null;
        IpcFile.beforeReplace = null;
        OpenFiles.afterCreateNewHook = null;
    }

    /** Where a create is held: the peer's hook number and what it says there. */
    private static final String[][] POINTS = {
        {"3", "TEMP"},     // temporary file made, not locked yet
        {"4", "LOCKED"},   // temporary file locked, no header yet
        {"1", "DECIDED"},  // temporary file complete, just before the rename
    };

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    private List<String> temps() throws IOException {
        return names().stream().filter(n -> n.endsWith(IpcFile.TEMP_SUFFIX)).collect(Collectors.toList());
    }

    /** Puts the seeded starting state at the path: absent, a closed receiver's file, or an empty file. */
    private static String prepare(Path file, int state) throws IOException {
        Files.deleteIfExists(file);
        if (state == 1) {
            IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096)).close();
            return "a closed receiver's file";
        }
        if (state == 2) {
            Files.createFile(file);
            return "an empty file";
        }
        return "absent";
    }

    /** A record sent to the path reaches {@code rx}: the file at the path is its own. */
    private static void assertReaches(Path file, IpcReceiver<Long> rx, long value) {
        try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
            tx.send(value);
        }
        Long got = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((got = rx.poll()) == null && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertEquals(Long.valueOf(value), got);
    }

    @Test
    @Timeout(180)
    void aCreateKilledBeforeItsRenameLeavesATemporaryFileWhichTheNextCreateRemoves() throws Exception {
        long seed = Long.getLong("ipc.leftover.seed", System.nanoTime());
        System.out.println("IpcCreateLeftoverTest seed " + seed + " (rerun: -Dipc.leftover.seed=" + seed + ")");
        Random rnd = new Random(seed);
        List<String[]> points = new ArrayList<>(List.of(POINTS));
        Collections.shuffle(points, rnd);
        Path file = dir.resolve("killed.ipc");
        for (String[] point : points) {
            String state = prepare(file, rnd.nextInt(3));
            String what = "killed at " + point[1] + ", path " + state + " (seed " + seed + ")";
            long pid;
            try (CreateRacePeer peer = new CreateRacePeer()) {
                pid = peer.process.pid();
                assertEquals("READY", peer.line());
                peer.send("CREATE " + file + " " + point[0] + " " + rnd.nextInt(100_000));
                assertEquals(point[1], peer.line(), what);
                assertEquals(List.of(".killed.ipc." + pid + ".1" + IpcFile.TEMP_SUFFIX), temps(),
                    what + ": the held create's temporary file");
                peer.kill();
            }
            assertEquals(List.of(".killed.ipc." + pid + ".1" + IpcFile.TEMP_SUFFIX), temps(),
                what + ": the kill leaves the temporary file");
            try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(),
                    IpcOptions.defaults().withCapacity(4096))) {
                assertEquals(List.of("killed.ipc"), names(), what + ": the next create removes the dead one's temporary file");
                assertReaches(file, rx, 7L);
            }
            assertEquals(List.of("killed.ipc"), names(), what);
        }
    }

    @Test
    @Timeout(180)
    void aLiveCreatesTemporaryFileIsNotRemovedByAnotherProcesssCreate() throws Exception {
        Path file = dir.resolve("live.ipc");
        for (String[] point : POINTS) {
            prepare(file, 1);
            String what = "held at " + point[1];
            try (CreateRacePeer peer = new CreateRacePeer()) {
                assertEquals("READY", peer.line());
                peer.send("CREATE " + file + " " + point[0] + " 0");
                assertEquals(point[1], peer.line(), what);
                List<String> held = temps();
                assertEquals(1, held.size(), what + ": " + held);
                // The held create has the path's lock: this one is refused (the current design
                // refuses, it does not wait), and sweeps the directory first.
                IpcException refused = assertThrows(IpcException.class, () -> IpcReceiver.create(file,
                    IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096)).close(), what);
                assertTrue(refused.getMessage().contains("another process is creating a receiver on it"),
                    what + ": " + refused.getMessage());
                if (!point[1].equals("TEMP")) {
                    assertEquals(held, temps(), what + ": a live create's locked temporary file stays");
                } // else: not locked yet, so the sweep may take it for a dead one's; the create then makes another
                peer.send("GO");
                assertEquals("WON", peer.line(), what + ": the held create goes on and wins");
                assertEquals(List.of("live.ipc"), names(), what + ": its temporary file was renamed into place");
                try (IpcSender<Long> tx = IpcSender.open(file, IpcCodec.int64())) {
                    tx.send(5L);
                }
                peer.send("TAKE");
                assertEquals("TOOK 5", peer.line(), what);
                peer.send("CLOSE");
                assertEquals("CLOSED", peer.line(), what);
                peer.send("EXIT");
                assertTrue(peer.process.waitFor(30, TimeUnit.SECONDS), what + ": peer did not exit");
                assertEquals(0, peer.process.exitValue(), what + ": peer exit code");
            }
        }
    }

    /**
     * A leftover named with this very process's pid (a dead process's pid reused, as for a
     * container whose JVM always gets the same one) and the next number: before, the create
     * failed on it ({@code FileAlreadyExistsException}); now it is swept. Files that are not a
     * temporary file of this path are left alone.
     */
    @Test
    @Timeout(60)
    void aLeftoverWithThisProcesssPidIsRemovedAndOtherFilesAreNot() throws Exception {
        Path file = dir.resolve("reused.ipc");
        long pid = ProcessHandle.current().pid();
        List<String> leftovers = List.of(".reused.ipc." + pid + "." + (IpcFile.TEMP_FILES.get() + 1) + IpcFile.TEMP_SUFFIX,
            ".reused.ipc.999999999.3" + IpcFile.TEMP_SUFFIX);
        List<String> others = List.of(".reused.ipc.notes" + IpcFile.TEMP_SUFFIX, ".other.ipc.1.1" + IpcFile.TEMP_SUFFIX,
            ".reused.ipc.1.1.creating.bak", "reused.ipc.1.1" + IpcFile.TEMP_SUFFIX);
        for (String n : leftovers) {
            Files.write(dir.resolve(n), new byte[] {1, 2, 3});
        }
        for (String n : others) {
            Files.write(dir.resolve(n), new byte[] {4});
        }
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096))) {
            List<String> expected = new ArrayList<>(others);
            expected.add("reused.ipc");
            Collections.sort(expected);
            assertEquals(expected, names());
            assertReaches(file, rx, 3L);
        }
    }

    /**
     * Another process's sweep may remove a create's temporary file in the instant between its
     * creation and its lock (it looks like a dead create's): the create makes another and wins. Here
     * the removal is done by a hook at the earliest point of that instant, just after the file is
     * made (the IpcCreateRaceTest at 400 rounds once met it there, and the create failed with
     * {@code NoSuchFileException}); {@link #aLiveCreatesTemporaryFileIsNotRemovedByAnotherProcesssCreate}
     * covers the latest, just before the lock.
     */
    @Test
    @Timeout(60)
    void aCreateWhoseUnlockedTemporaryFileIsSweptAwayMakesAnother() throws Exception {
        Path file = dir.resolve("swept.ipc");
        prepare(file, 1);
        List<String> removed = new ArrayList<>();
        OpenFiles.afterCreateNewHook = () -> {
            try {
                for (String t : temps()) {
                    if (removed.isEmpty()) {
                        Files.delete(dir.resolve(t));
                        removed.add(t);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096))) {
            OpenFiles.afterCreateNewHook = null;
            assertEquals(1, removed.size(), "the hook removed the first temporary file");
            assertEquals(List.of("swept.ipc"), names());
            assertReaches(file, rx, 9L);
        }
    }

    /** An ordinary failure while the temporary file is built deletes it; the next create works. */
    @Test
    @Timeout(60)
    void aFailureWhileBuildingTheTemporaryFileDeletesIt() throws Exception {
        Path file = dir.resolve("failing.ipc");
        for (int where = 0; where < 3; where++) {
            RuntimeException boom = new IllegalStateException("injected failure " + where);
            Runnable fail = () -> {
                throw boom;
            };
            IpcFile.afterTempCreated = where == 0 ? fail : null;
            IpcFile.afterTempLocked = where == 1 ? fail : null;
            IpcFile.beforeReplace = where == 2 ? fail : null;
            RuntimeException e = assertThrows(RuntimeException.class, () -> IpcReceiver.create(file, IpcCodec.int64(),
                IpcOptions.defaults().withCapacity(4096)).close());
            assertEquals(boom, e, "the injected failure, as thrown");
            clearHooks();
            assertEquals(List.of(), temps(), "failure " + where + ": no temporary file is left");
            try (IpcReceiver<Long> rx = IpcReceiver.create(file, IpcCodec.int64(), IpcOptions.defaults().withCapacity(4096))) {
                assertReaches(file, rx, where);
            }
        }
        assertEquals(List.of("failing.ipc"), names());
    }
}
