package org.bbflow.net.dist;

import java.util.HashMap;
import java.util.Map;

/**
 * Channel ids derived from the graph: a stable hash of the edge's path ({@link String#hashCode()} is
 * specified by the language, so every process computes the same id). Two paths with the same id are
 * refused in every process alike.
 */
final class ChannelIds {
    private final Map<Integer, String> taken = new HashMap<>();

    static String tasks(String farm, int worker) {
        return "farm/" + farm + "/worker-" + worker + "/tasks";
    }

    static String results(String farm, int worker) {
        return "farm/" + farm + "/worker-" + worker + "/results";
    }

    static String stageIn(String stage) {
        return "stage/" + stage + "/in";
    }

    static String stageOut(String stage) {
        return "stage/" + stage + "/out";
    }

    static String report(String group) {
        return "group/" + group + "/report";
    }

    static String verdict(String group) {
        return "group/" + group + "/verdict";
    }

    /** Where the master tells a new process of {@code group} its generation (the same id in every generation). */
    static String admission(String group) {
        return "group/" + group + "/admission";
    }

    /** The group's beats to the master ({@link Liveness}). */
    static String beats(String group) {
        return "group/" + group + "/beats";
    }

    /** The master's beats to the group. */
    static String pulse(String group) {
        return "group/" + group + "/pulse";
    }

    static int idOf(String path) {
        int h = path.hashCode() & 0x7fffffff;
        return h == 0 ? 1 : h;
    }

    /**
     * The id of {@code path} in generation {@code generation} of its group's process: the path's own id
     * in the first, the id of {@code path#generation} after a restart, so that nothing of an older
     * generation reaches the channels of a newer one.
     */
    static int idOf(String path, long generation) {
        return generation == 1 ? idOf(path) : idOf(path + "#" + generation);
    }

    /** Reserves the id of {@code path}; throws if another path has it. */
    int reserve(String path) {
        int id = idOf(path);
        String other = taken.putIfAbsent(id, path);
        if (other != null && !other.equals(path)) {
            throw new IllegalStateException("channel ids of '" + other + "' and '" + path + "' collide (" + id
                    + "); rename the farm");
        }
        if (other != null) {
            throw new IllegalStateException("edge '" + path + "' is declared twice; farm and stage names must be unique"
                    + " in a job");
        }
        return id;
    }
}
