package org.bbflow.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import org.bbflow.core.Nodes;
import org.bbflow.net.dist.DistributedJob;

/**
 * A group's program that takes its part of the job and then waits for a long time: it writes a file
 * named by its first argument, its group and its process id; the group named by the second argument,
 * if any, calls {@code run} (a group other than the master then waits for the master's admission,
 * which never comes: the master here never runs), every other group sleeps. It ends only when
 * something ends it. {@link LauncherOrphanTest} starts it through the launcher.
 */
public final class IdleGroup {
    private IdleGroup() {}

    /**
     * @param args the prefix of the file to write, and optionally the group that calls run
     * @throws Exception never in practice
     */
    public static void main(String[] args) throws Exception {
        DistributedJob job = DistributedJob.fromSystemProperties(); // what every group's program does first
        Files.writeString(Path.of(args[0] + "." + job.group() + "." + ProcessHandle.current().pid()), "");
        if (args.length > 1 && args[1].equals(job.group())) {
            job.run(Nodes.source(o -> { }));
        }
        Thread.sleep(600_000); // ten minutes: far beyond the test's deadline
    }
}
