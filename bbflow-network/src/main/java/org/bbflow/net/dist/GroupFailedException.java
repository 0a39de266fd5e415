package org.bbflow.net.dist;

import org.bbflow.core.FlowException;

/**
 * A group of a distributed job failed (one of its nodes threw, or its process was lost): thrown in
 * the master process with the group's own description of the failure (the failing node's path and
 * the exception it threw there).
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
        super("group '" + group + "' failed: " + description, nodePath, cause);
        this.group = group;
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
