package org.bbflow.net.dist;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The end of this process's standard input taken as the end of the launcher that started it
 * ({@value DistributedJob#EXIT_WITH_STDIN_PROPERTY}): the launcher keeps a pipe to each group's
 * standard input and closes it when it ends; when the launcher or the wrapper between (a shell, ssh,
 * srun) dies, even by SIGKILL, the kernel closes it, and ssh passes that end on to the remote side. A
 * daemon thread reads the input to its end, then fails every part of a job this process runs (their
 * flows cancelled: a group reports its failure, closes its channels and sockets), gives them
 * {@link #LINGER_MILLIS} to end, and exits the process with {@link #EXIT_STATUS}.
 *
 * <p>Off unless asked: a process started by hand, by Slurm or by Kubernetes often has an input that
 * ends at once ({@code /dev/null}, a closed stream) or a terminal, whose end says nothing about a
 * launcher. The input is the launcher's: the program must not read it.
 */
final class LauncherLink {
    /** The status the process exits with once its launcher is gone. */
    static final int EXIT_STATUS = 1;
    /** How long a running part may take to end (report its failure, close its channels) before the process exits. */
    static final long LINGER_MILLIS = 5_000;
    private static final Set<DistributedJob> PARTS = ConcurrentHashMap.newKeySet();
    private static Thread reader;

    private LauncherLink() {}

    /** Fails {@code part} and exits this process when standard input ends; the first call starts the reading. */
    static synchronized void watch(DistributedJob part) {
        PARTS.add(part);
        if (reader == null) {
            reader = new Thread(() -> awaitEnd(System.in), "bbflow-launcher-link");
            reader.setDaemon(true);
            reader.start();
        }
    }

    /** {@code part} has ended: nothing left of it to give up (the process still exits when its input ends). */
    static void forget(DistributedJob part) {
        PARTS.remove(part);
    }

    private static void awaitEnd(InputStream in) {
        byte[] discard = new byte[256];
        try {
            while (in.read(discard) >= 0) {
                // the launcher writes nothing; whatever comes is not the program's
            }
        } catch (IOException e) {
            // a broken input ends it too
        }
        String why = "its standard input ended: the launcher that started this process is gone";
        System.getLogger(DistributedJob.class.getName()).log(System.Logger.Level.WARNING,
                "bbflow: " + why + "; failing this process's part of the job and exiting with status " + EXIT_STATUS);
        for (DistributedJob part : PARTS) {
            part.abandon(why);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);
        for (DistributedJob part : PARTS) {
            part.awaitEnd(deadline);
        }
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(LINGER_MILLIS);
            } catch (InterruptedException e) {
                // halt now
            }
            Runtime.getRuntime().halt(EXIT_STATUS); // a shutdown hook that hangs does not keep the orphan alive
        }, "bbflow-launcher-link-halt");
        halt.setDaemon(true);
        halt.start();
        System.exit(EXIT_STATUS);
    }
}
