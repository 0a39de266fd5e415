package org.bbflow.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ForkJoinPool;
import org.bbflow.core.ThreadMapping;
import org.junit.jupiter.api.Test;

/**
 * This module's test JVMs get the build's common test options as well as its own (paranoid leak
 * detection): its surefire argLine replaces the parent's whole, and once dropped them, so these tests
 * ran without the larger common pool (helpers on {@code CompletableFuture.runAsync} starve on JDK 25's
 * pool of one thread), without Agrona's open package and without native access.
 */
class TestJvmOptionsTest {
    @Test
    void theModulesOwnOptionArrives() {
        assertEquals("paranoid", System.getProperty("io.netty.leakDetection.level"));
    }

    @Test
    void theBuildsCommonOptionsArriveToo() {
        assertEquals(16, ForkJoinPool.getCommonPoolParallelism(), "the common pool of the parent's argLine");
        assertTrue(Object.class.getModule().isOpen("jdk.internal.misc", TestJvmOptionsTest.class.getModule()),
                "java.base opens jdk.internal.misc (Agrona's Unsafe access)");
        assertTrue(ThreadMapping.isSupported(), () -> "native access: " + ThreadMapping.unsupportedReason());
    }
}
