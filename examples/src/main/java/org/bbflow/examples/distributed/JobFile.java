package org.bbflow.examples.distributed;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bbflow.net.dist.JobSpec;

/**
 * A launcher's job file (JSON): the program every group runs, the groups with their hosts and ports,
 * the remote-exec template, JVM options, and the shared-secret file or TLS files.
 *
 * <pre>{@code
 * {
 *   "main": "org.bbflow.examples.distributed.SquaresJob",
 *   "args": ["10000000"],
 *   "classpath": "/opt/bbflow/bbflow-examples.jar",
 *   "jvmOptions": ["-Xmx1g"],
 *   "remote": "ssh -T {host} {cmd}",
 *   "master": "m",
 *   "groups": {
 *     "m":  {"host": "10.0.0.1", "port": 7100},
 *     "w1": {"host": "10.0.0.2", "port": 7100, "jvmOptions": ["-Xmx4g"], "survivable": true}
 *   },
 *   "secretFile": "/etc/bbflow/job.secret",
 *   "peerTimeoutSeconds": 30
 * }
 * }</pre>
 *
 * @param main the main class every group runs
 * @param args its arguments
 * @param java the java command ({@code java} unless given)
 * @param classpath the class path on every host (the launcher's own unless given)
 * @param jvmOptions JVM options of every group
 * @param remote the default remote-exec template
 * @param groups the groups, in file order
 * @param spec the job as the processes see it
 *
 * <p>A group marked {@code "survivable": true} may end badly (its host lost, its process killed)
 * without the launcher stopping the job: declare it so for a group that runs only workers of farms
 * that re-send a lost worker's tasks ({@code WorkerLoss.RESEND_TASKS}); whether the job succeeded is
 * then the other groups' say, the master's first. The master group cannot be survivable.
 */
public record JobFile(String main, List<String> args, String java, String classpath, List<String> jvmOptions,
                      String remote, Map<String, Group> groups, JobSpec spec) {

    /** The default remote-exec template: the command, shell-quoted, through ssh. */
    public static final String SSH = "ssh -T {host} {cmd}";

    /**
     * One group of the job file.
     *
     * @param host the host it runs on (and listens on)
     * @param port the port it listens on
     * @param jvmOptions its extra JVM options
     * @param remote its remote-exec template
     * @param survivable whether the job goes on when this group ends badly
     */
    public record Group(String host, int port, List<String> jvmOptions, String remote, boolean survivable) {
    }

    /**
     * Reads a job file.
     *
     * @param file the JSON file
     * @return the job
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it is not a valid job (the message says what is wrong)
     */
    public static JobFile read(Path file) throws IOException {
        String text = Files.readString(file);
        JsonObject o;
        try {
            JsonElement e = JsonParser.parseString(text);
            if (!e.isJsonObject()) {
                throw new IllegalArgumentException(file + ": a job file is a JSON object");
            }
            o = e.getAsJsonObject();
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(file + ": not valid JSON: " + e.getMessage(), e);
        }
        try {
            return parse(o, file.toAbsolutePath().getParent());
        } catch (IllegalArgumentException | IllegalStateException | ClassCastException | UnsupportedOperationException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static JobFile parse(JsonObject o, Path dir) {
        for (String key : o.keySet()) {
            if (!List.of("main", "args", "java", "classpath", "jvmOptions", "remote", "master", "groups", "secretFile",
                    "tls", "insecure", "peerTimeoutSeconds").contains(key)) {
                throw new IllegalArgumentException("unknown key \"" + key + "\"");
            }
        }
        String main = string(o, "main", null);
        if (main == null) {
            throw new IllegalArgumentException("\"main\" (the class every group runs) is required");
        }
        String remote = string(o, "remote", SSH);
        JsonElement gs = o.get("groups");
        if (gs == null || !gs.isJsonObject() || gs.getAsJsonObject().isEmpty()) {
            throw new IllegalArgumentException("\"groups\" must be an object with at least one group");
        }
        JobSpec.Builder spec = JobSpec.builder();
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> g : gs.getAsJsonObject().entrySet()) {
            if (!g.getValue().isJsonObject()) {
                throw new IllegalArgumentException("group \"" + g.getKey() + "\" must be an object");
            }
            JsonObject go = g.getValue().getAsJsonObject();
            String host = string(go, "host", null);
            if (host == null || !go.has("port")) {
                throw new IllegalArgumentException("group \"" + g.getKey() + "\" needs \"host\" and \"port\"");
            }
            for (String key : go.keySet()) {
                if (!List.of("host", "port", "jvmOptions", "remote", "survivable").contains(key)) {
                    throw new IllegalArgumentException("group \"" + g.getKey() + "\": unknown key \"" + key + "\"");
                }
            }
            int port = go.get("port").getAsInt();
            boolean survivable = go.has("survivable") && go.get("survivable").getAsBoolean();
            spec.group(g.getKey(), host, port);
            groups.put(g.getKey(), new Group(host, port, strings(go, "jvmOptions"), string(go, "remote", remote),
                    survivable));
        }
        String master = string(o, "master", null);
        if (master != null) {
            spec.master(master);
        }
        String secret = string(o, "secretFile", null);
        if (secret != null) {
            spec.secretFile(dir.resolve(secret).normalize());
        }
        if (o.has("tls")) {
            JsonObject t = o.getAsJsonObject("tls");
            spec.tls(path(dir, string(t, "cert", null)), path(dir, string(t, "key", null)), path(dir, string(t, "trust", null)));
        }
        if (o.has("insecure") && o.get("insecure").getAsBoolean()) {
            spec.allowInsecure();
        }
        if (o.has("peerTimeoutSeconds")) {
            spec.peerTimeout(Duration.ofMillis(Math.round(o.get("peerTimeoutSeconds").getAsDouble() * 1000)));
        }
        JobSpec built = spec.build();
        if (groups.get(built.master()).survivable()) {
            throw new IllegalArgumentException("the master group \"" + built.master() + "\" cannot be survivable: "
                    + "the job's tasks and results go through it");
        }
        return new JobFile(main, strings(o, "args"), string(o, "java", null), string(o, "classpath", null),
                strings(o, "jvmOptions"), remote, groups, built);
    }

    private static Path path(Path dir, String p) {
        return p == null ? null : dir.resolve(p).normalize();
    }

    private static String string(JsonObject o, String key, String otherwise) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return otherwise;
        }
        if (!e.isJsonPrimitive()) {
            throw new IllegalArgumentException("\"" + key + "\" must be a string");
        }
        return e.getAsString();
    }

    private static List<String> strings(JsonObject o, String key) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return List.of();
        }
        if (!e.isJsonArray()) {
            throw new IllegalArgumentException("\"" + key + "\" must be an array of strings");
        }
        List<String> list = new ArrayList<>();
        for (JsonElement x : (JsonArray) e) {
            list.add(x.getAsString());
        }
        return List.copyOf(list);
    }
}
