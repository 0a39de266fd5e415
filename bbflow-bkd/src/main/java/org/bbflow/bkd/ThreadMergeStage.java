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

    ThreadMergeStage(Merger merger, int workers, int backlog, String name) {
        this.merger = merger;
        this.tickets = new ArrayBlockingQueue<>(backlog);
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(this::work, name + "-merge-" + i);
            t.setDaemon(true);
            this.workers.add(t);
        }
    }

    @Override
    public void start() {
        workers.forEach(Thread::start);
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
    public String kind() {
        return "threads";
    }
}
