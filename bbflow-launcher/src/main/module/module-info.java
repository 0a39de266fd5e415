/**
 * BBFlow's launcher: runs a distributed job from a JSON job file over ssh, or writes the Slurm batch
 * script or the Kubernetes manifests that run it.
 *
 * <p>Compiled after the tests and added to the jar at package time (the parent POM's
 * {@code module-descriptor} profile).
 */
module org.bbflow.launch {
    requires org.bbflow.net;
    requires com.google.gson;
    requires info.picocli;

    exports org.bbflow.launch;
    // picocli reads the commands' annotated fields reflectively
    opens org.bbflow.launch to info.picocli;
}
