package org.bbflow.core.par;

/**
 * A function of a {@link DivideAndConquer} threw: {@code solve} throws this, with that exception as
 * the cause and the problem it was working on. Failures of other workers meanwhile are suppressed
 * exceptions of the cause.
 */
public final class DivideAndConquerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Not serialized: a problem need not be serializable. */
    private final transient Object problem;

    DivideAndConquerException(Object problem, Throwable cause) {
        super("divide and conquer failed on problem " + problem + ": " + cause, cause);
        this.problem = problem;
    }

    /**
     * The problem being divided, solved or combined when the function threw.
     *
     * @return the problem (null after deserialization)
     */
    public Object problem() {
        return problem;
    }
}
