package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.distributed.DistributedWorker;
import org.bbflow.net.NetOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedFarmTest {

    @Test
    void masterCommandChecksTheSumOfTwoLocalWorkerJvmsResults() throws Exception {
        List<CompletableFuture<Integer>> ports = new ArrayList<>();
        List<CompletableFuture<Long>> processed = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Integer> port = new CompletableFuture<>();
            ports.add(port);
            processed.add(CompletableFuture.supplyAsync(() -> DistributedWorker.run(0, 2,
                    NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20)), port::complete)));
        }
        String workers = "127.0.0.1:" + ports.get(0).get(20, TimeUnit.SECONDS) + ",127.0.0.1:"
                + ports.get(1).get(20, TimeUnit.SECONDS);
        List<String> out = new ArrayList<>();
        int status = Main.run(new String[] {"master", "--workers", workers, "--items", "5000", "--rounds", "20"},
                Output.into(out));
        assertEquals(0, status, String.join("\n", out));
        assertTrue(out.get(out.size() - 1).contains("matches the local computation"), String.join("\n", out));
        assertEquals(5000, processed.get(0).get(20, TimeUnit.SECONDS) + processed.get(1).get(20, TimeUnit.SECONDS));
    }

    @Test
    void masterWithoutWorkersIsAUsageError() {
        assertEquals(2, Main.run(new String[] {"master", "--items", "10"}, Output.silent()));
    }
}
