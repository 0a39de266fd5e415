package org.bbflow.core.sched;

import java.util.Comparator;
import java.util.List;

/**
 * Ready task indexes as a binary heap ordered by the locality comparator on the payloads, ties
 * broken by insertion index. Preallocated to the task count, so it never allocates.
 */
final class ReadyQueue<T> {
    private final int[] heap;
    private final List<T> tasks;
    private final Comparator<? super T> order;
    private int size;

    ReadyQueue(int capacity, List<T> tasks, Comparator<? super T> order) {
        this.heap = new int[Math.max(1, capacity)];
        this.tasks = tasks;
        this.order = order;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    private boolean less(int a, int b) {
        if (order != null) {
            int c = order.compare(tasks.get(a), tasks.get(b));
            if (c != 0) {
                return c < 0;
            }
        }
        return a < b;
    }

    void push(int task) {
        int i = size++;
        heap[i] = task;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(heap[i], heap[parent])) {
                break;
            }
            int t = heap[i];
            heap[i] = heap[parent];
            heap[parent] = t;
            i = parent;
        }
    }

    int pop() {
        int top = heap[0];
        heap[0] = heap[--size];
        int i = 0;
        for (;;) {
            int l = 2 * i + 1;
            int r = l + 1;
            int m = i;
            if (l < size && less(heap[l], heap[m])) {
                m = l;
            }
            if (r < size && less(heap[r], heap[m])) {
                m = r;
            }
            if (m == i) {
                return top;
            }
            int t = heap[i];
            heap[i] = heap[m];
            heap[m] = t;
            i = m;
        }
    }
}
