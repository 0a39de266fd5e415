/**
 * Dependency-aware task scheduling (Wavescope's access scheduler, FastFlow's macro data-flow): a
 * {@link org.bbflow.core.sched.TaskGraph} of tasks with declared dependencies, run by a
 * {@link org.bbflow.core.sched.DependencyScheduler} on a farm whose emitter releases a task when its
 * dependencies completed, bounds the tasks in flight and dispatches ready tasks in a locality order.
 */
package org.bbflow.core.sched;
