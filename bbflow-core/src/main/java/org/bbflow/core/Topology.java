package org.bbflow.core;

/**
 * How the output ports of one pipeline stage connect to the input ports of the next (the thesis's
 * pipeline topologies). A block's ports are its emitter or its workers (farm), its left or right
 * members (all-to-all), or the node itself.
 */
public enum Topology {
    /** 1-to-1, 1xN or Nx1 when one side has a single port; N-to-N when both have N; NxM otherwise. */
    AUTO,
    /** One port to one port; anything else is an error. */
    ONE_TO_ONE,
    /** 1xN: one port to every port of the next stage. */
    ONE_TO_MANY,
    /** Nx1: every port to the single port of the next stage. */
    MANY_TO_ONE,
    /** N-to-N: port i to port i; both sides need the same number of ports. */
    PAIRWISE,
    /** NxM: every port to every port; each becomes a multi-input/multi-output node. */
    ALL_TO_ALL
}
