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

    static int idOf(String path) {
        int h = path.hashCode() & 0x7fffffff;
        return h == 0 ? 1 : h;
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
