package org.bbflow.net.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A group's rank and its peers' hosts from the engine's environment, and Slurm's host lists. */
class EngineTest {
    private static final String JOB = "master=m;group.m=:7100;group.w1=:7101;group.w2=:7102";

    @Test
    void rankFromAKubernetesIndexedJobAndHostsFromItsDnsNames() {
        DistributedJob job = withJob(Map.of("JOB_COMPLETION_INDEX", "2", "BBFLOW_HOST_PATTERN", "squares-{rank}.squares"));
        assertEquals("w2", job.group());
        assertEquals("squares-0.squares", job.spec().host("m"));
        assertEquals("squares-2.squares", job.spec().host("w2"));
        assertEquals(7102, job.spec().port("w2"));
    }

    @Test
    void rankFromSlurmWithHostsFromTheNodeListAndTheSizeChecked() {
        DistributedJob job = withJob(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "n[1-3]"));
        assertEquals("w1", job.group());
        assertEquals(List.of("n1", "n2", "n3"), job.spec().groups().stream().map(job.spec()::host).toList());
        IllegalStateException size = assertThrows(IllegalStateException.class, () -> withJob(Map.of("SLURM_PROCID", "1",
                "SLURM_NTASKS", "4", "SLURM_JOB_NODELIST", "n[1-4]")));
        assertTrue(size.getMessage().contains("SLURM_NTASKS=4 processes, but the job has 3 groups"), size::getMessage);
        IllegalStateException nodes = assertThrows(IllegalStateException.class, () -> withJob(Map.of("SLURM_PROCID", "1",
                "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "n[1-2]")));
        assertTrue(nodes.getMessage().contains("allocate one node per group"), nodes::getMessage);
    }

    /** A master step of one task and a worker step whose ranks count from 0 again, shifted by BBFLOW_RANK_OFFSET. */
    @Test
    void aWorkerStepCountsFromTheOffset() {
        assertEquals("m", withJob(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1", "BBFLOW_RANK_OFFSET", "0",
                "SLURM_JOB_NODELIST", "n[1-3]")).group());
        DistributedJob job = withJob(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "BBFLOW_RANK_OFFSET", "1",
                "SLURM_JOB_NODELIST", "n[1-3]"));
        assertEquals("w2", job.group());
        assertThrows(IllegalStateException.class, () -> withJob(Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "3",
                "BBFLOW_RANK_OFFSET", "1", "SLURM_JOB_NODELIST", "n[1-3]")));
    }

    /** Hunt 2: a negative BBFLOW_RANK_OFFSET gave rank -1 (an IndexOutOfBoundsException) or another group's rank. */
    @Test
    void aNegativeOrHugeOffsetIsRefused() {
        for (String offset : new String[] {"-1", "2147483647"}) {
            for (String rank : new String[] {"0", "1"}) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> withJob(Map.of("SLURM_PROCID", rank,
                        "SLURM_NTASKS", "1", "BBFLOW_RANK_OFFSET", offset, "SLURM_JOB_NODELIST", "n[1-3]")));
                assertTrue(e.getMessage().contains("BBFLOW_RANK_OFFSET=" + offset), e::getMessage);
            }
        }
    }

    @Test
    void theFirstRankVariablePresentWinsAndMpiRanksCount() {
        assertEquals("m", withJob(Map.of("BBFLOW_RANK", "0", "SLURM_PROCID", "2", "BBFLOW_HOST_PATTERN", "h{rank}")).group());
        assertEquals("w1", withJob(Map.of("OMPI_COMM_WORLD_RANK", "1", "BBFLOW_HOST_PATTERN", "h{rank}")).group());
        assertEquals("w2", withJob(Map.of("PMI_RANK", "2", "BBFLOW_HOST_PATTERN", "h{rank}")).group());
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> withJob(Map.of("BBFLOW_HOST_PATTERN", "h{rank}")));
        assertTrue(none.getMessage().contains("no rank"), none::getMessage);
        IllegalStateException bad = assertThrows(IllegalStateException.class,
                () -> withJob(Map.of("BBFLOW_RANK", "x", "BBFLOW_HOST_PATTERN", "h{rank}")));
        assertTrue(bad.getMessage().contains("BBFLOW_RANK='x' is not a whole number"), bad::getMessage);
        assertThrows(IllegalStateException.class, () -> withJob(Map.of("BBFLOW_RANK", "3", "BBFLOW_HOST_PATTERN", "h{rank}")));
    }

    @Test
    void slurmHostListsExpandInSlurmsOrder() {
        assertEquals(List.of("n1", "n2", "n3", "n7"), SlurmHostList.expand("n[1-3,7]"));
        assertEquals(List.of("node08", "node09", "node10"), SlurmHostList.expand("node[08-10]"));
        assertEquals(List.of("a1", "b2", "b3", "c"), SlurmHostList.expand("a1,b[2-3],c"));
        assertEquals(List.of("r1-n01", "r1-n02", "r2-n01", "r2-n02"), SlurmHostList.expand("r[1-2]-n[01-02]"));
        assertEquals(List.of("host.example"), SlurmHostList.expand("host.example"));
        assertThrows(IllegalArgumentException.class, () -> SlurmHostList.expand("n[1-3"));
        assertThrows(IllegalArgumentException.class, () -> SlurmHostList.expand("n[3-1]"));
        assertThrows(IllegalArgumentException.class, () -> SlurmHostList.expand("n[1-100000000]"));
        // hunt 3: a bracket that is not numbers made host names of its prefix or of brackets
        assertEquals(List.of("n008", "n009", "n010", "n011"), SlurmHostList.expand("n[008-011]"));
        for (String bad : List.of("n[]", "n[1-2,]", "n[,1]", "a[[1]]", "a[b]", "a[1-[2]]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlurmHostList.expand(bad),
                    () -> bad + " gave " + SlurmHostList.expand(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'"), e::getMessage);
        }
    }

    /** Every way to ask for too many hosts is refused before they are made (not after, out of memory). */
    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void hostListsTooLongAreRefusedBeforeTheyAreExpanded() {
        for (String list : List.of("n[1-1000]-[1-1000]-[1-1000]", "n[0-999999,0-999999,0-999999]",
                "a[0-999999],b[0-999999],c[0-999999]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlurmHostList.expand(list));
            assertTrue(e.getMessage().contains("more than " + SlurmHostList.MAX_HOSTS), e::getMessage);
        }
    }

    @Test
    void withoutAnEngineAJobWithEngineHostsSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> withJob(Map.of("BBFLOW_RANK", "1")));
        assertTrue(e.getMessage().contains("BBFLOW_HOST_PATTERN"), e::getMessage);
        assertNull(new Engine(Map.of()).rankSource());
    }

    /**
     * Hunt 3: a job that leaves hosts to the engine, run with -Dbbflow.group given by hand, skipped the
     * engine: the hosts stayed empty and each peer was dialled at "" (the loopback address), silently;
     * without any engine it did the same instead of saying that no host was given.
     */
    @Test
    void aGroupGivenByHandStillTakesItsHostsFromTheEngine() {
        String before = System.getProperty(DistributedJob.GROUP_PROPERTY);
        System.setProperty(DistributedJob.GROUP_PROPERTY, "w1");
        try {
            DistributedJob job = DistributedJob.fromSystemProperties(JOB, Map.of("SLURM_JOB_NODELIST", "n[008-010]"));
            assertEquals("w1", job.group());
            assertEquals(List.of("n008", "n009", "n010"), job.spec().groups().stream().map(job.spec()::host).toList());
            IllegalStateException none = assertThrows(IllegalStateException.class,
                    () -> DistributedJob.fromSystemProperties(JOB, Map.of()));
            assertTrue(none.getMessage().contains("leaves hosts to the engine"), none::getMessage);
        } finally {
            if (before == null) {
                System.clearProperty(DistributedJob.GROUP_PROPERTY);
            } else {
                System.setProperty(DistributedJob.GROUP_PROPERTY, before);
            }
        }
        IllegalArgumentException direct = assertThrows(IllegalArgumentException.class,
                () -> DistributedJob.of(JobSpec.parse("master=m;group.m=:7100;group.w1=127.0.0.1:7101"), "w1"));
        assertTrue(direct.getMessage().contains("group 'm' has no host"), direct::getMessage);
    }

    private static DistributedJob withJob(Map<String, String> env) {
        java.util.HashMap<String, String> e = new java.util.HashMap<>(env);
        e.put("BBFLOW_JOB", JOB);
        return DistributedJob.fromEnvironment(e);
    }
}
