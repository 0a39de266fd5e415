package org.bbflow.examples;

/**
 * A trivial "job" for the launcher's tests that needs no network: prints its group and its argument,
 * then the group named by the first argument exits with status 3 at once, every other group sleeps
 * for a minute (unless stopped by the launcher).
 */
public final class LaunchProbe {
    private LaunchProbe() {}

    /**
     * Args: {@code failing-group}.
     *
     * @param args the group that fails
     * @throws InterruptedException never in practice
     */
    public static void main(String[] args) throws InterruptedException {
        String group = System.getProperty("bbflow.group");
        System.out.println("hello from " + group + " arg=" + args[1]);
        System.out.flush();
        if (group.equals(args[0])) {
            System.err.println("failing on purpose");
            System.exit(3);
        }
        Thread.sleep(60_000);
    }
}
