package org.bbflow.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.bbflow.core.io.ChunkSource;
import org.bbflow.core.io.NBufJob;
import org.bbflow.core.par.Accelerator;
import org.bbflow.core.par.DivideAndConquer;
import org.bbflow.core.par.MapNode;
import org.bbflow.core.par.ParallelFor;
import org.bbflow.core.sched.DependencyScheduler;
import org.bbflow.core.sched.TaskGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every block that takes a worker count or a parallelism refuses one above {@link Parallelism#MAX}
 * when it is given, with an {@link IllegalArgumentException} naming the argument and the bound,
 * before it makes a worker or starts a thread (a huge count used to start threads until "unable to
 * create native thread"); the bound itself is accepted.
 */
@Timeout(60)
class ParallelismBoundTest {
    private static final int TOO_MANY = Parallelism.MAX + 1;

    private static void refused(String argument, Call call) {
        int before = Thread.activeCount();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            Object made = call.make();
            if (made instanceof AutoCloseable) {
                ((AutoCloseable) made).close(); // a pool the check let through: its threads end
            }
        });
        assertTrue(e.getMessage().contains(argument) && e.getMessage().contains(String.valueOf(Parallelism.MAX)),
                "the message names " + argument + " and the bound: " + e.getMessage());
        assertTrue(Thread.activeCount() <= before + 2, "threads were started: " + Thread.activeCount());
    }

    private static void refusedAbove(String argument, IntCall call) {
        refused(argument, () -> call.with(TOO_MANY));
        refused(argument, () -> call.with(Integer.MAX_VALUE));
    }

    interface IntCall {
        Object with(int n) throws Throwable;
    }

    interface Call {
        Object make() throws Throwable;
    }

    @Test
    void theBoundIsFastFlowsOrderOfMagnitudeAndAboveAnyCoreCount() {
        assertEquals(4096, Parallelism.MAX);
        assertEquals(7, Parallelism.check("workers", 7));
        refused("workers", () -> Parallelism.check("workers", 0));
        refusedAbove("workers", n -> Parallelism.check("workers", n));
    }

    @Test
    void farms() {
        refusedAbove("workers", n -> Farm.of(n, Nodes::identity));
        assertEquals(Parallelism.MAX, Farm.of(Parallelism.MAX, Nodes::identity).workerCount());
        List<Node<Long, Long>> many = new ArrayList<>();
        for (int i = 0; i < TOO_MANY; i++) {
            many.add(Nodes.identity());
        }
        refused("workers", () -> Farm.of(many));
        Farm<Long, Long> full = Farm.of(many.subList(0, Parallelism.MAX));
        refused("workers", () -> full.addWorker(Nodes.identity()));
        assertEquals(Parallelism.MAX, full.workerCount());
    }

    @Test
    void allToAll() {
        Supplier<Node<Long, Long>> id = Nodes::identity;
        refusedAbove("nLeft", n -> AllToAll.of(n, id, 1, id));
        refusedAbove("nRight", n -> AllToAll.of(1, id, n, id));
        List<Node<Long, Long>> many = new ArrayList<>();
        for (int i = 0; i < TOO_MANY; i++) {
            many.add(Nodes.identity());
        }
        refused("left", () -> AllToAll.of(many, List.of(Nodes.identity())));
        refused("right", () -> AllToAll.of(List.of(Nodes.identity()), many));
        AllToAll.of(Parallelism.MAX, id, Parallelism.MAX, id);
    }

    @Test
    void dataParallelBlocks() {
        refusedAbove("parallelism", ParallelFor::create);
        refusedAbove("parallelism", n -> ParallelFor.create(n, WaitStrategy.blocking()));
        refusedAbove("parallelism", n -> ParallelFor.create("p", n, WaitStrategy.blocking()));
        refusedAbove("parallelism", n -> MapNode.of(n, (Long x, ParallelFor pool) -> x));
        refusedAbove("parallelism", n -> MapNode.of(n, WaitStrategy.blocking(), (Long x, ParallelFor pool) -> x));
        assertEquals(Parallelism.MAX, MapNode.of(Parallelism.MAX, (Long x, ParallelFor pool) -> x).parallelism());
        DivideAndConquer<Long, Long> dc = DivideAndConquer.<Long, Long>of(p -> List.of(p), r -> r.get(0), p -> p,
                p -> true);
        refusedAbove("parallelism", dc::asNode);
        refusedAbove("workers", n -> Accelerator.builder(n, Nodes::<Long>identity));
        Accelerator.builder(Parallelism.MAX, Nodes::<Long>identity);
    }

    @Test
    void schedulerAndNBuffering() {
        TaskGraph<String, String> g = TaskGraph.<String, String>create().add("a", "a");
        refusedAbove("workers", n -> DependencyScheduler.of(g, n, () -> (String t) -> t));
        NBufJob<Long> job = NBufJob.<Long>of(ChunkSource.of(new ByteArrayInputStream(new byte[0]), 1024, 2, 1), () -> chunk -> { });
        refusedAbove("workers", job::workers);
    }
}
