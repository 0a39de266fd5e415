/**
 * BBFlow core: FastFlow's building blocks for the JVM.
 *
 * <p>{@link org.bbflow.core.Node} (sequential node), {@link org.bbflow.core.Comb} (two nodes fused),
 * {@link org.bbflow.core.Pipeline}, {@link org.bbflow.core.Farm} and
 * {@link org.bbflow.core.AllToAll} compose into any topology; {@link org.bbflow.core.Flow} runs it,
 * one platform thread per node, over lock-free {@link org.bbflow.core.Channel}s, waiting with a
 * {@link org.bbflow.core.WaitStrategy}.
 */
package org.bbflow.core;
