package org.bbflow.bkd;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Merge stage on plain platform threads reading a bounded ticket queue (used until, or instead
 * of, the BBFlow flow). Each ticket makes a worker merge while some level has enough trees.
 */
final class ThreadMergeStage implements MergeStage {
    private static final Object TICKET = new Object();
    private final Merger merger;
    private final ArrayBlockingQueue<Object> tickets;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    final MergeFailures failures = new MergeFailures();
    private volatile boolean closed;

    private final String name;
    /** Makes the workers (tests), or null for {@code new Thread}. */
    private final java.util.concurrent.ThreadFactory factory;
    private final int workerCount;

    ThreadMergeStage(Merger merger, int workers, int backlog, String name, java.util.concurrent.ThreadFactory factory) {
        this.merger = merger;
        this.tickets = new ArrayBlockingQueue<>(backlog);
        this.name = name;
        this.factory = factory;
        this.workerCount = workers;
    }

    /**
     * Makes and starts the workers. If one cannot be made or started, the ones started stop (at
     * {@link #close()}, which the failed build() runs): a worker only loops while not closed.
     */
    @Override
    public void start() {
        for (int i = 0; i < workerCount; i++) {
            Thread t = factory == null ? new Thread(this::work) : factory.newThread(this::work);
            if (t == null) {
                throw new IllegalStateException("the thread factory returned null for a merge worker");
            }
            t.setName(name + "-merge-" + i);
            t.setDaemon(true);
            this.workers.add(t);
            t.start();
        }
    }

    private void work() {
        while (!closed) {
            Object ticket;
            try {
                ticket = tickets.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (ticket == null) {
                continue;
            }
            try {
                KdTree[] job;
                while (!closed && (job = merger.claim()) != null) {
                    merger.run(job);
                }
            } catch (Throwable t) {
                failures.record(t);
            } finally {
                inFlight.decrementAndGet();
            }
        }
    }

    @Override
    public boolean submit() throws InterruptedException {
        inFlight.incrementAndGet();
        try {
            while (!closed) {
                if (tickets.offer(TICKET, 10, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            inFlight.decrementAndGet();
            throw e;
        }
        inFlight.decrementAndGet();
        return false;
    }

    @Override
    public boolean offer() {
        inFlight.incrementAndGet();
        if (!closed && tickets.offer(TICKET)) {
            return true;
        }
        inFlight.decrementAndGet();
        return false;
    }

    @Override
    public int backlog() {
        return inFlight.get();
    }

    @Override
    public void close() {
        closed = true;
        for (Thread t : workers) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        int left = tickets.size();
        tickets.clear();
        inFlight.addAndGet(-left);
    }

    @Override
    public IllegalStateException takeFailure() {
        return failures.take();
    }

    @Override
    public long failures() {
        return failures.total();
    }

    @Override
    public String kind() {
        return "threads";
    }
}
