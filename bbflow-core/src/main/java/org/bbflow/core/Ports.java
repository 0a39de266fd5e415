package org.bbflow.core;

import java.util.List;

/**
 * The ports of a compiled block: its entries (where its input arrives), its exits (where its output
 * leaves), and its loop entries, where a feedback loop around it brings items back: its entries, or
 * the generating node when the block begins with a {@link Source} (a source takes no input, but a
 * source at the head of a loop takes what comes back).
 */
final class Ports {
    final List<Vertex> entries;
    final List<Vertex> exits;
    final List<Vertex> loopEntries;

    Ports(List<Vertex> entries, List<Vertex> exits, List<Vertex> loopEntries) {
        this.entries = entries;
        this.exits = exits;
        this.loopEntries = loopEntries;
    }
}
