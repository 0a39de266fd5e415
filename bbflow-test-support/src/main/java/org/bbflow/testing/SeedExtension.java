package org.bbflow.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Gives each test its seed ({@link TestSeed}) and, when a test that drew from it fails, attaches the
 * command that reruns it with the same seed to the failure (as a suppressed exception, so it is in
 * the report and on the console with the stack trace) and prints it to standard error:
 *
 * <pre>
 * NOTE: reproduce with: ./mvnw -B verify -pl bbflow-core -am -Dtest='RandomCompositionTest#randomCompositions' -Dsurefire.failIfNoSpecifiedTests=false -Dbbflow.seed=-4211203459877231377
 * </pre>
 *
 * <p>Registered for every test class by the JUnit Platform's extension auto-detection (a service
 * entry in this jar; the parent POM enables auto-detection for Surefire).
 */
public final class SeedExtension implements BeforeAllCallback, BeforeEachCallback, TestExecutionExceptionHandler {

    @Override
    public void beforeAll(ExtensionContext context) {
        TestSeed.enter(context.getUniqueId());
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        TestSeed.enter(context.getUniqueId());
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        if (TestSeed.drawn()) {
            String line = reproduceLine(context);
            System.err.println(line);
            failure.addSuppressed(new Reproduce(line));
        }
        throw failure;
    }

    private static String reproduceLine(ExtensionContext context) {
        String module = Path.of(System.getProperty("user.dir")).getFileName().toString();
        String test = context.getRequiredTestClass().getSimpleName()
                + context.getTestMethod().map(m -> "#" + m.getName()).orElse("");
        return "NOTE: reproduce with: ./mvnw -B verify -pl " + module + " -am -Dtest='" + test
                + "' -Dsurefire.failIfNoSpecifiedTests=false -D" + TestSeed.PROPERTY + "=" + TestSeed.root();
    }

    /** Carries the reproduce line in a failure's suppressed exceptions (no stack trace of its own). */
    static final class Reproduce extends Exception {
        private static final long serialVersionUID = 1L;

        Reproduce(String line) {
            super(line, null, false, false);
        }
    }
}
