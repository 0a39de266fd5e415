package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's own limits, refused before any group starts. */
class LauncherTest {
    @TempDir
    Path dir;

    /**
     * Hunt 2: a time limit of 0 or below ended a job at once with 124 ("ran past PT-1S"), one too long
     * for nanoseconds started every group and failed with "long overflow"; a negative grace was taken.
     */
    @Test
    void timeLimitsOutOfRangeAreRefusedBeforeAnyGroupStarts() throws Exception {
        Path started = dir.resolve("started");
        Path f = dir.resolve("touch.json");
        // a group whose "java" creates a file: the sign that the launcher started it
        Files.writeString(f, "{\"main\": \"x.Main\", \"java\": \"touch\", \"remote\": \"{args}\", \"jvmOptions\": [\""
                + started + "\"], \"groups\": {\"m\": {\"host\": \"127.0.0.1\", \"port\": 7100}}}");
        JobFile job = JobFile.read(f).forRun();
        for (Duration timeout : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ZERO, Duration.ofSeconds(-1)}) {
            String m = assertThrows(IllegalArgumentException.class,
                    () -> Launcher.run(job, line -> { }, timeout, Duration.ofSeconds(1))).getMessage();
            assertTrue(m.contains("time limit"), m);
        }
        String m = assertThrows(IllegalArgumentException.class,
                () -> Launcher.run(job, line -> { }, null, Duration.ofSeconds(-1))).getMessage();
        assertTrue(m.contains("grace"), m);
        m = assertThrows(IllegalArgumentException.class,
                () -> Launcher.run(job, line -> { }, null, Duration.ofSeconds(Long.MAX_VALUE))).getMessage();
        assertTrue(m.contains("grace"), m);
        assertFalse(Files.exists(started), "a group was started");
    }
}
