package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.bbflow.net.dist.JobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes manifests of a job file, checked against Kubernetes' API types (fabric8's model,
 * generated from the API's OpenAPI schema): every object reads into its type with no field the type
 * does not know (a misspelt or misplaced field would land in an {@code additionalProperties} map) and
 * writes back to the same JSON (a value of the wrong type would not). Then what the objects say: an
 * Indexed Job of one pod per group whose index-0 success is the job's, retries per index, the pods'
 * DNS names as the job's hosts, and the secret mounted where the job text names it.
 */
class KubernetesManifestsTest {
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

    @TempDir
    Path dir;

    private JobFile job() throws Exception {
        Files.writeString(dir.resolve("job.secret"), "k8s-test-secret-0123456789\n");
        return job(dir.resolve("job.secret"));
    }

    /** The squares job with the secret file as it is. */
    private JobFile job(Path secret) throws Exception {
        Path f = dir.resolve("squares.json");
        Files.writeString(f, "{\"main\": \"org.bbflow.examples.distributed.SquaresJob\", \"args\": [\"1000000\", \"--resend\"],"
                + " \"classpath\": \"/app/bbflow-examples.jar\", \"jvmOptions\": [\"-Xmx512m\"],"
                + " \"groups\": {\"m\": {\"port\": 7100}, \"w1\": {\"port\": 7100, \"survivable\": true},"
                + " \"w2\": {\"port\": 7100, \"survivable\": true}}, \"secretFile\": \"" + dir.relativize(secret) + "\", \"livenessTimeoutSeconds\": 2}");
        return JobFile.read(f);
    }

    @Test
    void everyObjectIsAValidKubernetesObject() throws Exception {
        JsonNode list = JSON.readTree(KubernetesManifests.manifest(job(), "registry.example/bbflow:1", 3));
        assertEquals("List", list.get("kind").asText());
        int checked = 0;
        for (JsonNode item : list.get("items")) {
            Class<? extends KubernetesResource> type = switch (item.get("kind").asText()) {
                case "Service" -> Service.class;
                case "Secret" -> Secret.class;
                case "Job" -> Job.class;
                default -> throw new AssertionError("unexpected kind " + item.get("kind"));
            };
            KubernetesResource typed = JSON.treeToValue(item, type);
            noUnknownField(typed, item.get("kind").asText(), new IdentityHashMap<>());
            assertEquals(item, JSON.valueToTree(typed), () -> "a " + type.getSimpleName() + " does not write back unchanged");
            checked++;
        }
        assertEquals(3, checked);
    }

    @Test
    void theJobRunsOnePodPerGroupAndTheMastersSuccessIsTheJobs() throws Exception {
        JsonNode list = JSON.readTree(KubernetesManifests.manifest(job(), "registry.example/bbflow:1", 3));
        Job k8s = JSON.treeToValue(list.get("items").get(2), Job.class);
        Service service = JSON.treeToValue(list.get("items").get(0), Service.class);
        Secret secret = JSON.treeToValue(list.get("items").get(1), Secret.class);
        var spec = k8s.getSpec();
        assertEquals("Indexed", spec.getCompletionMode());
        assertEquals(3, spec.getCompletions());
        assertEquals(3, spec.getParallelism());
        assertEquals(3, spec.getBackoffLimitPerIndex());
        assertEquals("0", spec.getSuccessPolicy().getRules().get(0).getSucceededIndexes());
        assertEquals("Never", spec.getTemplate().getSpec().getRestartPolicy());
        assertEquals("None", service.getSpec().getClusterIP());
        assertEquals(service.getMetadata().getName(), spec.getTemplate().getSpec().getSubdomain());
        assertEquals(service.getSpec().getSelector(), spec.getTemplate().getMetadata().getLabels());
        assertTrue(spec.getPodFailurePolicy().getRules().stream().anyMatch(r -> r.getAction().equals("Ignore")
                && r.getOnPodConditions().get(0).getType().equals("DisruptionTarget")));
        var container = spec.getTemplate().getSpec().getContainers().get(0);
        Map<String, String> env = new java.util.HashMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
        assertEquals("squares-{rank}.squares", env.get("BBFLOW_HOST_PATTERN"));
        JobSpec text = JobSpec.parse(env.get("BBFLOW_JOB"));
        assertTrue(text.groups().stream().allMatch(text::hostFromEngine), env.get("BBFLOW_JOB"));
        assertEquals(java.time.Duration.ofSeconds(2), text.livenessTimeout());
        String secretFile = env.get("BBFLOW_JOB").replaceAll(".*secretFile=([^;]*).*", "$1");
        assertEquals(KubernetesManifests.SECRET_DIR + "/secret", secretFile);
        assertEquals(KubernetesManifests.SECRET_DIR, container.getVolumeMounts().get(0).getMountPath());
        assertEquals(secret.getMetadata().getName(), spec.getTemplate().getSpec().getVolumes().get(0).getSecret().getSecretName());
        assertEquals("k8s-test-secret-0123456789\n", new String(Base64.getDecoder().decode(secret.getData().get("secret"))));
        assertEquals(java.util.List.of("java", "-Xmx512m", "-cp", "/app/bbflow-examples.jar",
                "org.bbflow.examples.distributed.SquaresJob", "1000000", "--resend"), container.getCommand());
    }

    /**
     * Hunt 2: a job without a secret (and not marked insecure) gave manifests whose every pod failed at
     * start (its DNS name is beyond loopback); negative retries gave a Job the API server refuses.
     */
    @Test
    void aJobNoPodCouldRunIsRefused() throws Exception {
        Path f = dir.resolve("open.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"groups\": {\"m\": {\"port\": 7100}, \"w\": {\"port\": 7100}}}");
        String m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> KubernetesManifests.manifest(JobFile.read(f), "img", 3)).getMessage();
        assertTrue(m.contains("secretFile") && m.contains("insecure"), m);
        Files.writeString(f, Files.readString(f).replace("}}}", "}}, \"insecure\": true}"));
        assertTrue(KubernetesManifests.manifest(JobFile.read(f), "img", 3).contains("insecure=true"));
        m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> KubernetesManifests.manifest(job(), "img", -1)).getMessage();
        assertTrue(m.contains("retries"), m);
    }

    /**
     * Hunt 3: a group's own "jvmOptions" were dropped unseen (every pod ran the job's options only), and a
     * secret file too short for the processes went into the Secret, so every pod failed at start, each
     * index through its retries.
     */
    @Test
    void groupOptionsAreKeptOrRefusedAndAShortSecretIsRefused() throws Exception {
        Files.writeString(dir.resolve("job.secret"), "k8s-test-secret-0123456789\n");
        Path f = dir.resolve("opts.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"secretFile\": \"job.secret\", \"groups\": {"
                + "\"m\": {\"port\": 7100, \"jvmOptions\": [\"-Xmx4g\"]}, \"w\": {\"port\": 7100, \"jvmOptions\": [\"-Xmx4g\"]}}}");
        Job k8sJob = JSON.readValue(JSON.writeValueAsString(JSON.readTree(KubernetesManifests.manifest(JobFile.read(f), "img", 3))
                .get("items").get(2)), Job.class);
        assertTrue(k8sJob.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand().contains("-Xmx4g"),
                k8sJob.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand().toString());
        Files.writeString(f, Files.readString(f).replace("\"w\": {\"port\": 7100, \"jvmOptions\": [\"-Xmx4g\"]}",
                "\"w\": {\"port\": 7100}"));
        String m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> KubernetesManifests.manifest(JobFile.read(f), "img", 3)).getMessage();
        assertTrue(m.contains("\"m\" and \"w\"") && m.contains("jvmOptions"), m);
        Files.writeString(dir.resolve("job.secret"), "short\n");
        m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> KubernetesManifests.manifest(job(dir.resolve("job.secret")), "img", 3)).getMessage();
        assertTrue(m.contains("secret file " + dir.resolve("job.secret")) && m.contains("at least 16 bytes"), m);
        Path asDir = Files.createDirectory(dir.resolve("secret.d"));
        m = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> KubernetesManifests.manifest(job(asDir), "img", 3)).getMessage();
        assertTrue(m.contains(asDir.toString()) && m.contains("directory"), m);
    }

    /**
     * Hunt 3: the secret file was found by searching the whole job text, so an "id" holding
     * "secretFile=PATH" put that file (any file the user can read) into the Secret, and an insecure job
     * with such an id was given a secret.
     */
    @Test
    void theSecretFileIsTakenFromItsKeyNotFromTheIdentity() throws Exception {
        Path other = dir.resolve("private.key");
        Files.writeString(other, "not-for-the-cluster-0123456789");
        Path f = dir.resolve("id.json");
        Files.writeString(f, "{\"main\": \"x.Main\", \"insecure\": true, \"id\": \"xsecretFile=" + other + "\","
                + " \"groups\": {\"m\": {\"port\": 7100}}}");
        String manifest = KubernetesManifests.manifest(JobFile.read(f), "img", 3);
        assertTrue(!manifest.contains("\"Secret\"") && !manifest.contains(Base64.getEncoder().encodeToString(
                Files.readAllBytes(other))), manifest);
        assertTrue(manifest.contains("id=xsecretFile=" + other + ";"), manifest);
    }

    /**
     * Session 14: the job's name was mapped to a DNS label (lower case, anything else to '-'), so two
     * jobs ("a.b" and "a_b", "Job" and "job") got one Service, Secret and Job name and one pod selector:
     * applying one replaced the other's objects and selected its pods. A name that is not already a
     * label is refused now, the message suggesting one; a label names every object as it is.
     */
    @Test
    void twoJobsNeverShareTheirObjectsNames() throws Exception {
        Files.writeString(dir.resolve("job.secret"), "k8s-test-secret-0123456789\n");
        java.util.Map<String, String> refused = new java.util.LinkedHashMap<>();
        for (String name : java.util.List.of("a.b", "a_b", "Job", "job", "2nd-run", "squares-", "x".repeat(43))) {
            Path f = dir.resolve("named.json");
            Files.writeString(f, "{\"name\": \"" + name + "\", \"main\": \"x.Main\", \"secretFile\": \"job.secret\","
                    + " \"groups\": {\"m\": {\"port\": 7100}, \"w\": {\"port\": 7100}}}");
            try {
                JsonNode items = JSON.readTree(KubernetesManifests.manifest(JobFile.read(f), "img", 3)).get("items");
                for (JsonNode item : items) {
                    String objectName = item.get("metadata").get("name").asText();
                    assertTrue(objectName.equals(name) || objectName.equals(name + "-secret"), objectName);
                    assertEquals(name, item.get("metadata").get("labels").get("bbflow.org/job").asText());
                }
                Job k8s = JSON.treeToValue(items.get(2), Job.class);
                assertEquals(name, k8s.getSpec().getTemplate().getMetadata().getLabels().get("bbflow.org/job"));
                assertEquals(name, k8s.getSpec().getTemplate().getSpec().getSubdomain());
            } catch (IllegalArgumentException e) {
                refused.put(name, e.getMessage());
            }
        }
        assertEquals(java.util.List.of("a.b", "a_b", "Job", "2nd-run", "squares-", "x".repeat(43)),
                java.util.List.copyOf(refused.keySet()), refused.toString());
        assertTrue(refused.get("a.b").contains("job name 'a.b' is not a DNS label")
                && refused.get("a.b").contains("\"name\": \"a-b\""), refused.get("a.b"));
        assertTrue(refused.get("Job").contains("\"name\": \"job\""), refused.get("Job"));
        assertTrue(refused.get("2nd-run").contains("\"name\": \"job-2nd-run\""), refused.get("2nd-run"));
        assertTrue(refused.get("squares-").contains("\"name\": \"squares\""), refused.get("squares-"));
        assertTrue(refused.get("x".repeat(43)).contains("\"name\": \"" + "x".repeat(42) + "\""), refused.toString());
    }

    /** Fails if any object reachable from {@code o} holds fields its type does not know. */
    private static void noUnknownField(Object o, String path, IdentityHashMap<Object, Boolean> seen) throws Exception {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object x : c) {
                noUnknownField(x, path + "[" + i++ + "]", seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                noUnknownField(e.getValue(), path + "." + e.getKey(), seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method g : o.getClass().getMethods()) {
            if (g.getParameterCount() != 0 || !g.getName().startsWith("get") || g.getDeclaringClass() == Object.class
                    || Set.of("getClass").contains(g.getName())) {
                continue;
            }
            Object v = g.invoke(o);
            if (g.getName().equals("getAdditionalProperties")) {
                if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    fail(path + " has fields its Kubernetes type does not know: " + extra.keySet());
                }
                continue;
            }
            noUnknownField(v, path + "." + g.getName().substring(3), seen);
        }
    }
}
