package org.bbflow.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bbflow.net.dist.DistributedJob;

/**
 * A group's program that takes its part of the job and then does nothing for a long time (it never
 * calls {@code run}): it writes its process id to the file its first argument names, and ends only
 * when something ends it. {@link LauncherOrphanTest} starts it through the launcher.
 */
public final class IdleGroup {
    private IdleGroup() {}

    /**
     * @param args the file to write this process's id to
     * @throws Exception never in practice
     */
    public static void main(String[] args) throws Exception {
        DistributedJob.fromSystemProperties(); // what every group's program does first
        Path pid = Path.of(args[0] + "." + ProcessHandle.current().pid());
        Files.writeString(pid, "");
        Thread.sleep(600_000); // ten minutes: far beyond the test's deadline
    }
}
