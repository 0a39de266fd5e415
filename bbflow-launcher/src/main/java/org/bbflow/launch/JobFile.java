package org.bbflow.launch;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import org.bbflow.net.dist.JobSpec;

/**
 * A job file (JSON): the program every group runs, the groups with their hosts and ports, the
 * remote-exec template, JVM options, the shared-secret file or TLS files, and the timeouts.
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
 *   "peerTimeoutSeconds": 30,
 *   "livenessTimeoutSeconds": 1.5,
 *   "stallTimeoutSeconds": 600
 * }
 * }</pre>
 *
 * <p>Read strictly: an unknown key is named, a port is a whole number from 1 to 65535 (not a string,
 * not 25621.7), a flag is {@code true} or {@code false} (not "yes"), two groups on one host and
 * port are refused, each with the group and key at fault; so are a key given twice in one object, an
 * empty {@code main} or {@code remote}, a host with spaces, {@code ;} or {@code =} or starting with
 * {@code -}, and a name (the file's {@code "name"}, else its file name) that cannot begin the job's
 * identity (1 to 53 printable ASCII characters without spaces or {@code ;}). A group may leave out its {@code host}
 * when an engine places the processes (Slurm, Kubernetes, see {@link #engineHosts()}); the ssh
 * launcher needs every host.
 *
 * @param main the main class every group runs
 * @param args its arguments
 * @param java the java command ({@code java} unless given)
 * @param classpath the class path on every host (the launcher's own unless given)
 * @param jvmOptions JVM options of every group
 * @param remote the default remote-exec template
 * @param groups the groups, in file order
 * @param spec the job as the processes see it
 * @param name the job's name: the file's {@code "name"}, else the file's name without {@code .json}
 * @param namesId whether the file gives the job's identity ({@code "id"})
 *
 * <p>A group marked {@code "survivable": true} may end badly (its host lost, its process killed)
 * without the launcher stopping the job: declare it so for a group that runs only workers of farms
 * that re-send a lost worker's tasks ({@code WorkerLoss.RESEND_TASKS}); whether the job succeeded is
 * then the other groups' say, the master's first. The master group cannot be survivable.
 */
public record JobFile(String main, List<String> args, String java, String classpath, List<String> jvmOptions,
                      String remote, Map<String, Group> groups, JobSpec spec, String name, boolean namesId) {

    /** The default remote-exec template: the command, shell-quoted, through ssh. */
    public static final String SSH = "ssh -T {host} {cmd}";

    /** The keys of a job file, in the order the format lists them. */
    static final List<String> KEYS = List.of("name", "id", "main", "args", "java", "classpath", "jvmOptions", "remote",
            "master", "groups", "secretFile", "tls", "insecure", "peerTimeoutSeconds", "livenessTimeoutSeconds",
            "stallTimeoutSeconds");
    /** The longest name: the identity (at most 64 characters) is the name, '-' and Slurm's job id (10 digits). */
    static final int MAX_NAME = 53;
    private static final Set<String> GROUP_KEYS = Set.of("host", "port", "jvmOptions", "remote", "survivable");
    private static final Set<String> TLS_KEYS = Set.of("cert", "key", "trust");

    /**
     * The format, as {@code --help} prints it.
     */
    public static final String FORMAT = ""
            + "Job file (JSON):\n"
            + "  main                    the class every group runs (required)\n"
            + "  args                    its arguments: an array of strings\n"
            + "  name                    the job's name (default: the file's name without .json); kubernetes\n"
            + "                          names its objects after it, so there a DNS label (a-z first, then\n"
            + "                          a-z, 0-9, '-'; at most 42 characters), e.g. \"my-job\"\n"
            + "  id                      the job's identity, in every handshake (default: name + a random suffix\n"
            + "                          per launch; spec/kubernetes/slurm derive it from the file)\n"
            + "  java, classpath         the java command and the class path on every host\n"
            + "  jvmOptions              JVM options of every group: an array of strings\n"
            + "  remote                  remote-exec template (default: ssh -T {host} {cmd}); {host} and {group}\n"
            + "                          are replaced, {cmd} is the command as one shell-quoted word, {args} as words\n"
            + "  master                  the master group (default: the first)\n"
            + "  groups                  {\"NAME\": {\"host\": H, \"port\": P, \"jvmOptions\": [...], \"remote\": T,\n"
            + "                          \"survivable\": true|false}, ...}; port a whole number 1-65535; host\n"
            + "                          left out when an engine (Slurm, Kubernetes) places the processes\n"
            + "  secretFile              a file of at least 16 bytes, on every host (relative: to the job file)\n"
            + "  tls                     {\"cert\": F, \"key\": F, \"trust\": F}, PEM files on every host; mutual:\n"
            + "                          each process presents cert, and trust must accept every peer's\n"
            + "  insecure                true to listen beyond loopback without secret or TLS\n"
            + "  peerTimeoutSeconds      how long a peer may stay away before the job fails (default 30)\n"
            + "  livenessTimeoutSeconds  silence after which a group is suspected lost (default 1.5)\n"
            + "  stallTimeoutSeconds     no progress (tasks outstanding, none taken, no result back) after which\n"
            + "                          a beating group counts as lost; off unless given: set it above the\n"
            + "                          longest task; with it, every block of another group must be a node";

    /**
     * One group of the job file.
     *
     * @param host the host it runs on (and listens on); empty if the engine gives it
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
     * @throws java.nio.file.NoSuchFileException if there is no such file (the command line says "no such file: PATH")
     * @throws FileSystemException if {@code file} is a directory (the message is
     *     {@code "PATH: a directory, not a file"}; the JDK's own was a bare "Is a directory", naming no path)
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it is not a valid job (the message names the file, the key and
     *     the group at fault)
     */
    public static JobFile read(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, "a directory, not a file");
        }
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
        String base = file.getFileName().toString().replaceFirst("\\.json$", "");
        try {
            refuseRepeatedKeys(text);
            return parse(o, file.toAbsolutePath().getParent(), base);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a key given twice in one object, naming the object: the parser keeps the last value
     * silently, so two groups of one name would become one, or a second "port" win unseen.
     */
    private static void refuseRepeatedKeys(String text) throws IOException {
        JsonReader r = new JsonReader(new StringReader(text));
        r.setStrictness(Strictness.LENIENT); // as JsonParser read it
        Deque<Set<String>> open = new ArrayDeque<>();
        for (JsonToken t; (t = r.peek()) != JsonToken.END_DOCUMENT; ) {
            switch (t) {
                case BEGIN_OBJECT -> {
                    r.beginObject();
                    open.push(new HashSet<>());
                }
                case END_OBJECT -> {
                    r.endObject();
                    open.pop();
                }
                case BEGIN_ARRAY -> r.beginArray();
                case END_ARRAY -> r.endArray();
                case NAME -> {
                    String key = r.nextName();
                    if (!open.peek().add(key)) {
                        String path = r.getPath();
                        String in = path.substring(0, Math.max(1, path.length() - key.length() - 1));
                        throw new IllegalArgumentException((in.length() > 2 ? in.substring(2) + ": " : "") + "key \""
                                + key + "\" is given twice");
                    }
                }
                default -> r.skipValue();
            }
        }
    }

    /**
     * Whether some group leaves its host to the engine (a job file for Slurm or Kubernetes).
     *
     * @return true if a group has no host
     */
    public boolean engineHosts() {
        return groups.values().stream().anyMatch(g -> g.host().isEmpty());
    }

    /**
     * This job with its identity replaced (the launcher gives each run its own).
     *
     * @param id the identity
     * @return the job with that identity
     */
    public JobFile withId(String id) {
        return new JobFile(main, args, java, classpath, jvmOptions, remote, groups,
                JobSpec.parse(spec.toText().replaceFirst("^id=[^;]*", Matcher.quoteReplacement("id=" + id))), name, true);
    }

    /**
     * This job as one run of it: with the file's identity if it names one, else with the job's name and
     * a random suffix, so that two runs of one file (one lingering, one starting) never cross.
     *
     * @return the job for one run
     */
    public JobFile forRun() {
        return namesId ? this : withId(name + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static JobFile parse(JsonObject o, Path dir, String base) {
        for (String key : o.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown key \"" + key + "\"" + hint(key, KEYS));
            }
        }
        String main = string(o, "main", null, "");
        if (main == null || main.isBlank()) {
            throw new IllegalArgumentException("\"main\" (the class every group runs) is required, and not empty");
        }
        String remote = template(string(o, "remote", SSH, ""), "");
        JsonElement gs = o.get("groups");
        if (gs == null || !gs.isJsonObject() || gs.getAsJsonObject().isEmpty()) {
            throw new IllegalArgumentException("\"groups\" must be an object with at least one group");
        }
        JobSpec.Builder spec = JobSpec.builder();
        Map<String, Group> groups = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> g : gs.getAsJsonObject().entrySet()) {
            String where = "group \"" + g.getKey() + "\": ";
            if (!g.getValue().isJsonObject()) {
                throw new IllegalArgumentException(where + "must be an object");
            }
            JsonObject go = g.getValue().getAsJsonObject();
            for (String key : go.keySet()) {
                if (!GROUP_KEYS.contains(key)) {
                    throw new IllegalArgumentException(where + "unknown key \"" + key + "\"" + hint(key, GROUP_KEYS));
                }
            }
            String host = string(go, "host", "", where);
            if (!go.has("port")) {
                throw new IllegalArgumentException(where + "\"port\" is required");
            }
            int port = port(go.get("port"), where);
            boolean survivable = bool(go, "survivable", where);
            try {
                spec.group(g.getKey(), host, port);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            groups.put(g.getKey(), new Group(host, port, strings(go, "jvmOptions", where),
                    template(string(go, "remote", remote, where), where), survivable));
        }
        String master = string(o, "master", null, "");
        if (master != null) {
            spec.master(master);
        }
        String secret = string(o, "secretFile", null, "");
        if (secret != null) {
            spec.secretFile(dir.resolve(secret).normalize());
        }
        if (o.has("tls")) {
            if (!o.get("tls").isJsonObject()) {
                throw new IllegalArgumentException("\"tls\" must be an object {\"cert\", \"key\", \"trust\"}");
            }
            JsonObject t = o.getAsJsonObject("tls");
            for (String key : t.keySet()) {
                if (!TLS_KEYS.contains(key)) {
                    throw new IllegalArgumentException("tls: unknown key \"" + key + "\"" + hint(key, TLS_KEYS));
                }
            }
            spec.tls(path(dir, string(t, "cert", null, "tls: ")), path(dir, string(t, "key", null, "tls: ")),
                    path(dir, string(t, "trust", null, "tls: ")));
        }
        if (bool(o, "insecure", "")) {
            spec.allowInsecure();
        }
        if (o.has("peerTimeoutSeconds")) {
            spec.peerTimeout(seconds(o, "peerTimeoutSeconds"));
        }
        if (o.has("livenessTimeoutSeconds")) {
            spec.livenessTimeout(seconds(o, "livenessTimeoutSeconds"));
        }
        if (o.has("stallTimeoutSeconds")) {
            spec.stallTimeout(seconds(o, "stallTimeoutSeconds"));
        }
        String name = string(o, "name", base, "");
        if (!name.matches("[\\x21-\\x7e&&[^;]]{1," + MAX_NAME + "}")) {
            throw new IllegalArgumentException((o.has("name") ? "\"name\" '" + name + "'"
                    : "the file's name '" + name + "' (no \"name\" given)") + " cannot begin the job's identity: give 1 to " + MAX_NAME + " printable ASCII characters without"
                    + " spaces or ';' (each run adds '-' and a suffix)");
        }
        String id = string(o, "id", null, "");
        if (id != null) {
            spec.id(id);
        }
        JobSpec built = spec.build();
        if (groups.get(built.master()).survivable()) {
            throw new IllegalArgumentException("the master group \"" + built.master() + "\" cannot be survivable: "
                    + "the job's tasks and results go through it");
        }
        return new JobFile(main, strings(o, "args", ""), string(o, "java", null, ""), string(o, "classpath", null, ""),
                strings(o, "jvmOptions", ""), remote, groups, built, name, id != null);
    }

    /** ", did you mean ..." for a key one edit away from a known one. */
    private static String hint(String key, Collection<String> known) {
        for (String k : known) {
            String a = k.toLowerCase();
            String b = key.toLowerCase();
            if (distance(a, b) <= 2 || (b.length() >= 4 && (a.startsWith(b) || b.startsWith(a)))) {
                return " (did you mean \"" + k + "\"?)";
            }
        }
        return "; the keys are " + known;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int[] cur = new int[b.length() + 1];
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            }
            prev = cur;
        }
        return prev[b.length()];
    }

    /** A remote-exec template: a blank one would start every group on this machine, not on its host. */
    private static String template(String remote, String where) {
        if (remote.isBlank()) {
            throw new IllegalArgumentException(where + "\"remote\" must not be empty (\"{args}\" alone runs a group on"
                    + " this machine)");
        }
        return remote;
    }

    private static int port(JsonElement e, String where) {
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
            BigDecimal d;
            try {
                d = e.getAsBigDecimal();
            } catch (NumberFormatException outOfRange) { // Gson's limit on exponents: 1e999999999
                d = BigDecimal.ZERO;
            }
            if (d.stripTrailingZeros().scale() <= 0 && d.compareTo(BigDecimal.ONE) >= 0
                    && d.compareTo(BigDecimal.valueOf(65535)) <= 0) {
                return d.intValueExact();
            }
        }
        throw new IllegalArgumentException(where + "\"port\" must be a whole number from 1 to 65535, got " + e);
    }

    private static boolean bool(JsonObject o, String key, String where) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return false;
        }
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean()) {
            return e.getAsBoolean();
        }
        throw new IllegalArgumentException(where + "\"" + key + "\" must be true or false, got " + e);
    }

    private static Duration seconds(JsonObject o, String key) {
        JsonElement e = o.get(key);
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber() || e.getAsDouble() <= 0) {
            throw new IllegalArgumentException("\"" + key + "\" must be a positive number of seconds, got " + e);
        }
        return Duration.ofMillis(Math.round(e.getAsDouble() * 1000));
    }

    private static Path path(Path dir, String p) {
        return p == null ? null : dir.resolve(p).normalize();
    }

    private static String string(JsonObject o, String key, String otherwise, String where) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return otherwise;
        }
        if (!e.isJsonPrimitive() || !((JsonPrimitive) e).isString()) {
            throw new IllegalArgumentException(where + "\"" + key + "\" must be a string, got " + e);
        }
        return e.getAsString();
    }

    private static List<String> strings(JsonObject o, String key, String where) {
        JsonElement e = o.get(key);
        if (e == null || e.isJsonNull()) {
            return List.of();
        }
        if (!e.isJsonArray()) {
            throw new IllegalArgumentException(where + "\"" + key + "\" must be an array of strings, got " + e);
        }
        List<String> list = new ArrayList<>();
        for (JsonElement x : (JsonArray) e) {
            if (!x.isJsonPrimitive() || !((JsonPrimitive) x).isString()) {
                throw new IllegalArgumentException(where + "\"" + key + "\" must be an array of strings, got " + x);
            }
            list.add(x.getAsString());
        }
        return List.copyOf(list);
    }
}
