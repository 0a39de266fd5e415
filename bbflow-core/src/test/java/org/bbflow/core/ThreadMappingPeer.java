package org.bbflow.core;

/** Prints whether this JVM can pin threads and why not: {@code ThreadMappingTest}'s child JVM. */
final class ThreadMappingPeer {
    private ThreadMappingPeer() {
    }

    public static void main(String[] args) {
        System.out.println("supported=" + ThreadMapping.isSupported() + " " + ThreadMapping.unsupportedReason());
    }
}
