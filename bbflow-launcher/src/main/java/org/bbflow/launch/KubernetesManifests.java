package org.bbflow.launch;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.bbflow.net.dist.JobSpec;

/**
 * The Kubernetes objects that run a job file: one pod per group, started by an Indexed Job (index i
 * runs the i-th group, the master at 0: each pod reads {@code JOB_COMPLETION_INDEX} as its rank), a
 * headless Service that gives pod i the stable DNS name {@code <name>-<i>.<name>} (the job's hosts,
 * through {@code BBFLOW_HOST_PATTERN}), and the job's secret as a Secret mounted as a file.
 *
 * <p>What a lost pod does to the job: the job's verdict is the master's ({@code successPolicy} on
 * index 0: when the master succeeds, the Job succeeds, whatever a worker pod did). A worker pod that
 * dies is retried on its own ({@code backoffLimitPerIndex}, default 3): its new process rejoins the
 * running job under a new generation when its group is survivable (runs only {@code RESEND_TASKS}
 * workers), and fails at once otherwise (the master has failed the job by then). A pod evicted by a
 * node's disruption does not count ({@code podFailurePolicy}: {@code Ignore} on
 * {@code DisruptionTarget}), and a usage error (exit status 2) fails the Job without retries.
 * The objects need Kubernetes 1.31 or newer ({@code successPolicy}, {@code backoffLimitPerIndex}).
 */
public final class KubernetesManifests {
    /** Where the secret file is mounted in every pod. */
    static final String SECRET_DIR = "/etc/bbflow/secret";

    private KubernetesManifests() {}

    /**
     * The objects for {@code job}: a Service, a Secret if the job has a secret file, and a Job, as a
     * Kubernetes {@code List} in JSON (which {@code kubectl apply -f} reads like YAML).
     *
     * @param job the job file; its hosts are ignored (the pods' DNS names replace them)
     * @param image the container image holding java and the job's class path
     * @param retries how many times a worker pod is retried ({@code backoffLimitPerIndex})
     * @return the manifest, JSON
     * @throws IOException if the secret file cannot be read
     * @throws IllegalArgumentException if the job uses TLS files (mount them yourself), has neither a secret
     *     file nor {@code "insecure": true} (no pod could listen), its secret file is a directory or
     *     shorter than a secret may be, two groups have different {@code "jvmOptions"} (every pod runs one command),
     *     the name is not already a DNS label (it names the objects as it is, see {@link #objectName}), or
     *     {@code retries} is negative
     */
    public static String manifest(JobFile job, String image, int retries) throws IOException {
        JsonObject list = new JsonObject();
        list.addProperty("apiVersion", "v1");
        list.addProperty("kind", "List");
        JsonArray items = new JsonArray();
        for (JsonObject o : objects(job, image, retries)) {
            items.add(o);
        }
        list.add("items", items);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(list);
    }

    /** The objects, in the order they are applied. */
    static List<JsonObject> objects(JobFile job, String image, int retries) throws IOException {
        String name = objectName(job.name());
        JobSpec spec = job.spec();
        // the job text's values, by key: a search of the whole text also matched inside the identity
        // (an "id" of "xsecretFile=/home/me/.ssh/id_rsa" put that file into the Secret)
        List<String> parts = List.of(spec.toText().split(";"));
        if (parts.stream().anyMatch(p -> p.startsWith("tlsCert="))) {
            throw new IllegalArgumentException("the manifests mount a secret file only; mount TLS files yourself and"
                    + " set tls paths inside the pods");
        }
        if (!spec.authenticated() && !spec.insecure()) {
            throw new IllegalArgumentException("every pod listens on its DNS name, beyond loopback: give the job a"
                    + " \"secretFile\", or mark it \"insecure\": true explicitly (else every pod refuses to start)");
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be 0 or more, got " + retries);
        }
        List<String> groups = spec.groups();
        // every pod runs the one command of the Job's template: a group's own JVM options cannot differ
        // from the others' (they were dropped unseen, a group's -Xmx4g with them)
        List<String> groupOptions = job.groups().get(groups.get(0)).jvmOptions();
        for (String g : groups) {
            if (!job.groups().get(g).jvmOptions().equals(groupOptions)) {
                throw new IllegalArgumentException("groups \"" + groups.get(0) + "\" and \"" + g + "\" have different"
                        + " \"jvmOptions\" (" + groupOptions + ", " + job.groups().get(g).jvmOptions() + "): every pod"
                        + " runs the Job's one command; give every group the same options (or put them in the job's"
                        + " \"jvmOptions\")");
            }
        }
        List<JsonObject> objects = new ArrayList<>();

        JsonObject service = object("v1", "Service", name, name);
        JsonObject serviceSpec = new JsonObject();
        serviceSpec.addProperty("clusterIP", "None");
        serviceSpec.addProperty("publishNotReadyAddresses", true); // the peers need the names before any pod is ready
        serviceSpec.add("selector", labels(name));
        JsonArray servicePorts = new JsonArray();
        for (int port : new TreeSet<>(groups.stream().map(spec::port).toList())) {
            JsonObject p = new JsonObject();
            p.addProperty("name", "bbflow-" + port);
            p.addProperty("port", port);
            p.addProperty("protocol", "TCP");
            servicePorts.add(p);
        }
        serviceSpec.add("ports", servicePorts);
        service.add("spec", serviceSpec);
        objects.add(service);

        String secretPath = null;
        String secretPart = parts.stream().filter(p -> p.startsWith("secretFile=")).findFirst().orElse(null);
        if (secretPart != null) {
            Path file = Path.of(secretPart.substring("secretFile=".length()));
            JsonObject secret = object("v1", "Secret", name + "-secret", name);
            secret.addProperty("type", "Opaque");
            JsonObject data = new JsonObject();
            if (Files.isDirectory(file)) { // reading it said only "Is a directory", naming no file
                throw new IllegalArgumentException("secret file " + file + " is a directory, not a file");
            }
            byte[] raw = Files.readAllBytes(file);
            checkSecret(file, raw);
            data.addProperty("secret", Base64.getEncoder().encodeToString(raw));
            secret.add("data", data);
            objects.add(secret);
            secretPath = SECRET_DIR + "/secret";
        }
        // every host left to the pods' DNS names: the job text with empty hosts, the secret where it is mounted
        StringBuilder engineText = new StringBuilder();
        for (String part : parts) {
            engineText.append(engineText.length() == 0 ? "" : ";")
                    .append(part.startsWith("group.") ? part.substring(0, part.indexOf('=') + 1) + ":"
                            + part.substring(part.lastIndexOf(':') + 1)
                            : part.startsWith("secretFile=") ? "secretFile=" + secretPath : part);
        }

        JsonObject k8sJob = object("batch/v1", "Job", name, name);
        JsonObject jobSpec = new JsonObject();
        jobSpec.addProperty("completionMode", "Indexed");
        jobSpec.addProperty("completions", groups.size());
        jobSpec.addProperty("parallelism", groups.size());
        jobSpec.addProperty("backoffLimitPerIndex", retries);
        jobSpec.addProperty("maxFailedIndexes", groups.size());
        JsonObject success = new JsonObject();
        JsonArray rules = new JsonArray();
        JsonObject masterRule = new JsonObject();
        masterRule.addProperty("succeededIndexes", "0");
        masterRule.addProperty("succeededCount", 1);
        rules.add(masterRule);
        success.add("rules", rules);
        jobSpec.add("successPolicy", success);
        JsonObject failure = new JsonObject();
        JsonArray failureRules = new JsonArray();
        JsonObject usage = new JsonObject();
        usage.addProperty("action", "FailJob");
        JsonObject exitCodes = new JsonObject();
        exitCodes.addProperty("containerName", "bbflow");
        exitCodes.addProperty("operator", "In");
        JsonArray two = new JsonArray();
        two.add(2);
        exitCodes.add("values", two);
        usage.add("onExitCodes", exitCodes);
        failureRules.add(usage);
        JsonObject disruption = new JsonObject();
        disruption.addProperty("action", "Ignore");
        JsonArray conditions = new JsonArray();
        JsonObject target = new JsonObject();
        target.addProperty("type", "DisruptionTarget");
        target.addProperty("status", "True");
        conditions.add(target);
        disruption.add("onPodConditions", conditions);
        failureRules.add(disruption);
        failure.add("rules", failureRules);
        jobSpec.add("podFailurePolicy", failure);

        JsonObject template = new JsonObject();
        JsonObject templateMeta = new JsonObject();
        templateMeta.add("labels", labels(name));
        template.add("metadata", templateMeta);
        JsonObject podSpec = new JsonObject();
        podSpec.addProperty("subdomain", name);
        podSpec.addProperty("restartPolicy", "Never");
        JsonObject container = new JsonObject();
        container.addProperty("name", "bbflow");
        container.addProperty("image", image);
        JsonArray command = new JsonArray();
        command.add(job.java() != null ? job.java() : "java");
        job.jvmOptions().forEach(command::add);
        groupOptions.forEach(command::add);
        command.add("-cp");
        command.add(job.classpath() != null ? job.classpath() : "/app/*");
        command.add(job.main());
        job.args().forEach(command::add);
        container.add("command", command);
        JsonArray env = new JsonArray();
        env.add(env("BBFLOW_JOB", engineText.toString()));
        env.add(env("BBFLOW_HOST_PATTERN", name + "-{rank}." + name));
        container.add("env", env);
        JsonArray containerPorts = new JsonArray();
        for (int port : new TreeSet<>(groups.stream().map(spec::port).toList())) {
            JsonObject p = new JsonObject();
            p.addProperty("containerPort", port);
            p.addProperty("protocol", "TCP");
            containerPorts.add(p);
        }
        container.add("ports", containerPorts);
        if (secretPath != null) {
            JsonArray mounts = new JsonArray();
            JsonObject mount = new JsonObject();
            mount.addProperty("name", "job-secret");
            mount.addProperty("mountPath", SECRET_DIR);
            mount.addProperty("readOnly", true);
            mounts.add(mount);
            container.add("volumeMounts", mounts);
            JsonArray volumes = new JsonArray();
            JsonObject volume = new JsonObject();
            volume.addProperty("name", "job-secret");
            JsonObject source = new JsonObject();
            source.addProperty("secretName", name + "-secret");
            source.addProperty("defaultMode", 0400);
            volume.add("secret", source);
            volumes.add(volume);
            podSpec.add("volumes", volumes);
        }
        JsonArray containers = new JsonArray();
        containers.add(container);
        podSpec.add("containers", containers);
        template.add("spec", podSpec);
        jobSpec.add("template", template);
        k8sJob.add("spec", jobSpec);
        objects.add(k8sJob);
        return objects;
    }

    /**
     * The name of every object (Service, Secret, Job, and the {@code bbflow.org/job} label that selects
     * the pods): the job's name itself, which must already be a DNS label.
     *
     * <p>Why refused rather than mapped: a mapping (lower case, anything else to '-') sent two jobs to
     * one name ("a.b" and "a_b", "Job" and "job"), so one job's {@code kubectl apply} replaced the
     * other's Service, Secret and Job, and its selector took the other's pods. A stable hash appended
     * when the mapping changed a name would keep them apart, but the user could no longer predict the
     * names {@code kubectl get job NAME} and the pods' DNS names ({@code <name>-<i>.<name>}) take; the
     * job's name, as written, is what a Kubernetes user expects to find. So a name that is not a label
     * is refused, the message suggesting the label to put in {@code "name"}.
     *
     * <p>At most 42 characters: a pod's host name is {@code <name>-<index>} and its name
     * {@code <name>-<index>-<5 random>}, within Kubernetes' 63.
     */
    static String objectName(String jobName) {
        if (jobName.matches("[a-z]([-a-z0-9]{0,40}[a-z0-9])?")) {
            return jobName;
        }
        String suggested = jobName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-");
        if (!suggested.matches("[a-z].*")) {
            suggested = "job-" + suggested.replaceAll("^-+", "");
        }
        suggested = suggested.substring(0, Math.min(42, suggested.length())).replaceAll("-+$", "");
        throw new IllegalArgumentException("job name '" + jobName + "' is not a DNS label (a lower-case letter, then"
                + " a-z, 0-9 or '-', not ending in '-', at most 42 characters), and the Kubernetes objects are named"
                + " after it as it is (mapping it could give two jobs one name): set \"name\" in the job file, e.g."
                + " \"name\": \"" + suggested + "\"");
    }

    /**
     * Refuses a secret every pod would refuse at start (after crash-looping through its retries): the
     * same rule as the processes' ({@code NetOptions.withSharedSecret}, trailing line ends dropped).
     */
    private static void checkSecret(Path file, byte[] raw) {
        int n = raw.length;
        while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r')) {
            n--;
        }
        byte[] key = java.util.Arrays.copyOf(raw, n);
        try {
            org.bbflow.net.NetOptions.defaults().withSharedSecret(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("secret file " + file + ": " + e.getMessage(), e);
        } finally {
            java.util.Arrays.fill(key, (byte) 0);
        }
    }

    /** An object named {@code name}, labelled as the job's (the Secret's label was its own name, "job-secret"). */
    private static JsonObject object(String apiVersion, String kind, String name, String job) {
        JsonObject o = new JsonObject();
        o.addProperty("apiVersion", apiVersion);
        o.addProperty("kind", kind);
        JsonObject meta = new JsonObject();
        meta.addProperty("name", name);
        meta.add("labels", labels(job));
        o.add("metadata", meta);
        return o;
    }

    private static JsonObject labels(String name) {
        JsonObject l = new JsonObject();
        l.addProperty("app.kubernetes.io/name", "bbflow");
        l.addProperty("bbflow.org/job", name);
        return l;
    }

    private static JsonObject env(String name, String value) {
        JsonObject e = new JsonObject();
        e.addProperty("name", name);
        e.addProperty("value", value);
        return e;
    }
}
