package org.bbflow.net.dist;

import org.bbflow.core.FlowException;

/**
 * A group of a distributed job failed (one of its nodes threw, or its process was lost): thrown in
 * the master process with the group's own description of the failure (the failing node's path and
 * the exception it threw there). The message is one line; the stack trace the group sent, if any,
 * is attached as a suppressed exception whose lines are each marked with the group, so that it
 * prints after this process's own trace and is never mixed into it.
 */
public class GroupFailedException extends FlowException {
    private static final long serialVersionUID = 1L;

    /** The group that failed (part of the serialized form). */
    private final String group;

    /**
     * A failure of {@code group}.
     *
     * @param group the group that failed
     * @param nodePath the path of the failing node in the group's process, or the group's name if unknown
     * @param description what the group reported
     * @param cause how the master noticed (e.g. the remote channel's failure), or null
     */
    public GroupFailedException(String group, String nodePath, String description, Throwable cause) {
        super("group '" + group + "' failed: " + firstLine(description), nodePath, cause);
        this.group = group;
        int nl = description.indexOf('\n');
        if (nl >= 0 && nl + 1 < description.length()) {
            addSuppressed(new RemoteTrace(group, description.substring(nl + 1)));
        }
    }

    private static String firstLine(String description) {
        int nl = description.indexOf('\n');
        return nl < 0 ? description : description.substring(0, nl);
    }

    /** The stack trace a group sent, each line marked with the group; it has no stack of its own. */
    static final class RemoteTrace extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RemoteTrace(String group, String trace) {
            super("stack trace sent by group '" + group + "':\n" + trace.strip().lines()
                    .map(l -> "\t[" + group + "] " + l.strip()).collect(java.util.stream.Collectors.joining("\n")),
                    null, false, false);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    /**
     * The group that failed.
     *
     * @return the group's name
     */
    public String group() {
        return group;
    }
}
