package org.bbflow.net.dist;

import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import org.bbflow.core.FlowException;

/**
 * A group of a distributed job failed (one of its nodes threw, or its process was lost): thrown in
 * the master process with the group's own description of the failure (the failing node's path and
 * the exception it threw there). The message is one line; the stack trace the group sent, if any,
 * is attached as a suppressed exception whose lines are each marked with the group, so that it
 * prints after this process's own trace and is never mixed into it.
 *
 * <p>A failure may name several groups when the master cannot tell which one of them failed: a
 * linked run of stages that the stall watch finds stuck ({@link JobSpec#stallTimeout()}; the master
 * sees only items sent to the run's first group and results taken from its last), or a farm whose
 * remote workers were all lost. Every name it gives is a real group of the job: {@link #group()} is
 * the first of them (for a linked run the one the master sent the task to, for a farm the first group
 * of its placement), so that code that looks one group up (to restart it, exclude it, or log its host)
 * finds it, and {@link #groups()} lists them all. A joined name such as {@code "w1+w2"} is never given:
 * no group has it. The message then begins {@code groups 'w1', 'w2' failed: }.
 */
public class GroupFailedException extends FlowException {
    private static final long serialVersionUID = 1L;

    /** The group that failed (part of the serialized form). */
    private final String group;
    /** Every group the failure names, {@link #group} first (part of the serialized form). */
    private final List<String> groups;

    /**
     * A failure of {@code group}.
     *
     * @param group the group that failed
     * @param nodePath the path of the failing node in the group's process, or the group's name if unknown
     * @param description what the group reported
     * @param cause how the master noticed (e.g. the remote channel's failure), or null
     */
    public GroupFailedException(String group, String nodePath, String description, Throwable cause) {
        this(List.of(group), nodePath, description, cause);
    }

    /**
     * A failure of one of {@code groups}, the master cannot tell which (a stuck linked run, in run
     * order; a farm that lost every remote worker, in placement order).
     *
     * @param groups the groups, at least one, each once; the first is {@link #group()}
     * @param nodePath the path of the failing node in the master or a group's process, or a group's name if unknown
     * @param description what the group reported, or how the master found the failure
     * @param cause how the master noticed (e.g. the remote channel's failure), or null
     * @throws IllegalArgumentException if {@code groups} is empty or names a group twice
     */
    public GroupFailedException(List<String> groups, String nodePath, String description, Throwable cause) {
        super(named(groups) + " failed: " + firstLine(description), nodePath, cause);
        this.groups = List.copyOf(groups);
        this.group = this.groups.get(0);
        int nl = description.indexOf('\n');
        if (nl >= 0 && nl + 1 < description.length()) {
            addSuppressed(new RemoteTrace(group, description.substring(nl + 1)));
        }
    }

    /** {@code group 'w1'}, or {@code groups 'w1', 'w2'}: the launcher reads the names from it. */
    private static String named(List<String> groups) {
        if (groups.isEmpty() || new HashSet<>(groups).size() != groups.size()) {
            throw new IllegalArgumentException("a failure names one group or more, each once: " + groups);
        }
        return (groups.size() == 1 ? "group " : "groups ")
                + groups.stream().map(g -> "'" + g + "'").collect(Collectors.joining(", "));
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
                    .map(l -> "\t[" + group + "] " + l.strip()).collect(Collectors.joining("\n")),
                    null, false, false);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    /**
     * The group that failed: a real group of the job. When the failure names several
     * ({@link #groups()}), the first of them: a stuck linked run's first group (the one the master
     * sent the task to), a farm's first group.
     *
     * @return the group's name
     */
    public String group() {
        return group;
    }

    /**
     * Every group the failure names, {@link #group()} first: that one alone, unless the master cannot
     * tell which of several failed (a stuck linked run, in run order; a farm that lost every remote
     * worker, in placement order).
     *
     * @return the groups' names, unmodifiable, at least one
     */
    public List<String> groups() {
        return groups;
    }
}
