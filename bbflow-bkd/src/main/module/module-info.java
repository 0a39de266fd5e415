/**
 * BBFlow's concurrent Bkd-tree (multidimensional point index).
 *
 * <p>Compiled after the tests and added to the jar at package time (the parent POM's
 * {@code module-descriptor} profile).
 */
module org.bbflow.bkd {
    requires transitive org.bbflow.core;

    exports org.bbflow.bkd;
}
