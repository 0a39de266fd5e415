package org.bbflow.examples;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version {@code --version} prints: the Maven project version, put into
 * {@code version.properties} when the module is built (resource filtering), else the jar
 * manifest's {@code Implementation-Version}.
 */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"bbflow-examples " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }

    /** The project version, or {@code unknown}. */
    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "");
                if (!v.isBlank() && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall back to the manifest
        }
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }
}
