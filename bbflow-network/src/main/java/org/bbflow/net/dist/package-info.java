/**
 * Distributed jobs: one program runs in every process of a job, each process runs its group, and the
 * edges between groups become TCP channels.
 *
 * <ul>
 *   <li>{@link org.bbflow.net.dist.JobSpec}: the groups, the address each listens on, the master group,
 *       the secret file or TLS files.</li>
 *   <li>{@link org.bbflow.net.dist.Placement}: which group runs each worker of a farm.</li>
 *   <li>{@link org.bbflow.net.dist.DistributedJob}: declares the distributed farms and runs this
 *       process's part; a failure in any group fails the job in every process
 *       ({@link org.bbflow.net.dist.GroupFailedException} in the master).</li>
 *   <li>{@link org.bbflow.net.dist.WorkerLoss}: whether a farm fails the job when a worker process is
 *       lost, or re-sends that worker's unfinished tasks to the workers still alive.</li>
 * </ul>
 */
package org.bbflow.net.dist;
