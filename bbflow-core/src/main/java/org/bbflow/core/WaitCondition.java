package org.bbflow.core;

/** What a waiting thread waits for: re-checked after the thread has published itself as parked. */
@FunctionalInterface
interface WaitCondition {
    boolean ready();
}
