package org.bbflow.core;

import java.util.Objects;

/** A block made of blocks: compiles itself into vertices and edges. */
abstract sealed class Composite<I, O> implements Block<I, O> permits Pipeline, Farm, AllToAll {
    private String name;
    private volatile boolean started;

    Composite(String defaultName) {
        this.name = defaultName;
    }

    /** Adds this block's vertices and inner edges; returns its entry and exit ports. */
    abstract Ports compile(GraphBuilder g, String path, int workerIndex);

    String name() {
        return name;
    }

    void rename(String newName) {
        Objects.requireNonNull(newName, "name");
        if (newName.isEmpty() || newName.contains("/")) {
            throw new IllegalArgumentException("a block name must be non-empty and contain no '/': '" + newName + "'");
        }
        checkModifiable();
        this.name = newName;
    }

    /** Marks the block started; fails if it was started before. */
    void markStarted() {
        synchronized (this) {
            if (started) {
                throw new IllegalStateException("block '" + name + "' was already started; blocks are single-use, build a new one");
            }
            started = true;
        }
    }

    /** Undoes {@link #markStarted()} when the flow's start was abandoned before any node ran. */
    void unmarkStarted() {
        synchronized (this) {
            started = false;
        }
    }

    boolean isStarted() {
        return started;
    }

    void checkModifiable() {
        if (started) {
            throw new IllegalStateException("block '" + name + "' was already started and can no longer be changed");
        }
    }

    static String childName(Block<?, ?> b) {
        return b instanceof Composite ? ((Composite<?, ?>) b).name() : ((Node<?, ?>) b).name();
    }
}
