package org.bbflow.core;

import java.util.List;

/** The entry and exit ports of a compiled block. */
final class Ports {
    final List<Vertex> entries;
    final List<Vertex> exits;

    Ports(List<Vertex> entries, List<Vertex> exits) {
        this.entries = entries;
        this.exits = exits;
    }
}
