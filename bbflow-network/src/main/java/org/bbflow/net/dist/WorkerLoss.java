package org.bbflow.net.dist;

/**
 * What a distributed farm does when the process of one of its worker groups is lost (killed, its host
 * down, or unreachable past the job's peer timeout). A worker that <em>throws</em> fails the job in
 * either case: only a lost process is survivable.
 */
public enum WorkerLoss {
    /** The job fails with a {@link GroupFailedException} naming the lost group (the default). */
    FAIL_JOB,

    /**
     * The farm re-sends the lost group's unfinished tasks to the workers still alive in the other
     * non-master groups and to its workers in the master that are {@link org.bbflow.core.Node}s
     * (round-robin) and goes on; the job fails only if every worker of the farm outside the master
     * group is lost and none of those runs in the master. The master group itself is not survivable.
     *
     * <p>Each worker must be a {@link org.bbflow.core.Node}: its group marks the end of each task after
     * {@code onItem} returns, and the master hands a task's results on only once that mark arrives, so
     * a re-sent task's results arrive exactly once, never partly from the lost group. This holds for
     * workers whose results are a function of their task. A stateful worker's state in the lost group
     * is gone (the re-sent tasks meet a fresh or another worker's state), results it sends at end of
     * stream ({@code onEos}) are lost with its process, and side effects of the lost group's unfinished
     * tasks may happen twice. A lost group is detected by its silence: no sign of life for the job's
     * liveness timeout ({@link JobSpec#livenessTimeout()}, default 1.5 s), which bounds the time to
     * recover; a process of the group started again rejoins under a new generation.
     *
     * <p>The master hands a finished task's results to the farm's collector through whichever of the
     * farm's stand-ins runs next, not necessarily the one whose worker ran it. So the farm collects
     * first-come: {@link DistributedJob#run} refuses it without a collector (whose output port i would
     * carry worker i's results) and with a strict one (ordered, round-robin, gather), and a collector
     * of your own cannot tell from {@code inputIndex()} which worker ran a task.
     */
    RESEND_TASKS
}
