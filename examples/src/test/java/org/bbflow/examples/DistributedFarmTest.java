package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bbflow.examples.distributed.DistributedWorker;
import org.bbflow.net.Codec;
import org.bbflow.net.NetOptions;
import org.bbflow.net.NetServer;
import org.bbflow.net.RemoteInlet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DistributedFarmTest {
    private static final Pattern LISTENING = Pattern.compile("worker: listening on (\\S+) port (\\d+) .*");

    @TempDir
    Path dir;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void masterCommandChecksTheSumOfTwoLocalWorkerJvmsResults() throws Exception {
        List<CompletableFuture<Integer>> ports = new ArrayList<>();
        List<CompletableFuture<Long>> processed = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Integer> port = new CompletableFuture<>();
            ports.add(port);
            processed.add(CompletableFuture.supplyAsync(() -> DistributedWorker.run(0, 2,
                    NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(20)), port::complete), threads));
        }
        String workers = "127.0.0.1:" + ports.get(0).get(20, TimeUnit.SECONDS) + ",127.0.0.1:"
                + ports.get(1).get(20, TimeUnit.SECONDS);
        List<String> out = new ArrayList<>();
        int status = Main.run(new String[] {"master", "--workers", workers, "--items", "5000", "--rounds", "20"},
                Output.into(out));
        assertEquals(0, status, String.join("\n", out));
        assertTrue(out.get(out.size() - 1).contains("matches the local computation"), String.join("\n", out));
        assertEquals(5000, processed.get(0).get(20, TimeUnit.SECONDS) + processed.get(1).get(20, TimeUnit.SECONDS));
    }

    /** Starts {@code worker --port 0 <flags>} through the command line; returns its port and its exit status. */
    private record Worker(String bind, int port, Future<Integer> status, List<String> out, List<String> err) {
    }

    private Worker startWorker(String... flags) throws Exception {
        CompletableFuture<Matcher> listening = new CompletableFuture<>();
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        List<String> argv = new ArrayList<>(List.of("worker", "--port", "0", "--threads", "2"));
        argv.addAll(List.of(flags));
        Future<Integer> status = threads.submit(() -> {
            try {
                return Main.run(argv.toArray(String[]::new), line -> {
                    synchronized (out) {
                        out.add(line);
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.matches()) {
                        listening.complete(m);
                    }
                }, Output.into(err));
            } finally {
                listening.completeExceptionally(new IllegalStateException("worker ended: " + out + " " + err));
            }
        });
        Matcher m = listening.get(30, TimeUnit.SECONDS);
        return new Worker(m.group(1), Integer.parseInt(m.group(2)), status, out, err);
    }

    private static List<String> runMaster(int expectedStatus, int port, String... flags) {
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        List<String> argv = new ArrayList<>(List.of("master", "--workers", "127.0.0.1:" + port, "--items", "3000",
                "--rounds", "10"));
        argv.addAll(List.of(flags));
        assertEquals(expectedStatus, Main.run(argv.toArray(String[]::new), Output.into(out), Output.into(err)),
                out + "\n" + err);
        return out;
    }

    @Test
    void workerListensOnLoopbackByDefaultAndServesAMasterWithASecret() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "0123456789abcdef-shared\n", StandardCharsets.UTF_8);
        Worker w = startWorker("--secret-file", secret.toString(), "--peer-timeout", "20s");
        assertEquals("127.0.0.1", w.bind());
        List<String> out = runMaster(0, w.port(), "--secret", "0123456789abcdef-shared", "--peer-timeout", "20s");
        assertTrue(out.get(out.size() - 1).contains("matches the local computation"), out.toString());
        assertEquals(0, w.status().get(30, TimeUnit.SECONDS), w.out() + " " + w.err());
        assertTrue(w.out().get(w.out().size() - 1).contains("processed 3,000 tasks"), w.out().toString());
    }

    /**
     * A worker that stays connected but never reads its tasks (here: one that takes its job and then
     * nothing, its heartbeats going on, so the peer timeout never fires): the master's sends wait for
     * window for ever. Before, the run hung; now it fails, naming the worker, once neither a task went
     * out to it nor a result came back from it for the peer timeout (2 s here).
     */
    @Test
    void aWorkerThatNeverReadsFailsTheMasterWithinThePeerTimeout() throws Exception {
        try (NetServer fake = NetServer.bind("127.0.0.1", 0, NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(60)))) {
            RemoteInlet<DistributedWorker.Job> control = fake.inlet(0, Codec.record(DistributedWorker.Job.class));
            RemoteInlet<Long> tasks = fake.inlet(1, Codec.longs()); // registered, never read: its window fills
            try {
                // beside it a real worker, which runs dry once the round-robin emitter waits on the fake
                // one: idle, not stuck, so not named (it once was: its progress stopped too)
                Worker real = startWorker();
                List<String> out = java.util.Collections.synchronizedList(new ArrayList<>());
                List<String> err = java.util.Collections.synchronizedList(new ArrayList<>());
                long t0 = System.nanoTime();
                Future<Integer> master = threads.submit(() -> Main.run(new String[] {"master", "--workers",
                    "127.0.0.1:" + fake.port() + ",127.0.0.1:" + real.port(), "--items", "2000000", "--rounds", "0",
                    "--peer-timeout", "2s"}, Output.into(out), Output.into(err)));
                assertTrue(control.take() != null); // the handshake the master needs: its job is taken
                int status = master.get(20, TimeUnit.SECONDS); // before the fix: a TimeoutException (a hang)
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals(1, status, out + "\n" + err);
                String all = String.join("\n", err);
                assertTrue(all.contains("worker 127.0.0.1:" + fake.port()) && all.contains("no progress"), all);
                assertFalse(all.contains(":" + real.port()), () -> "the idle worker was named stuck too: " + all);
                assertTrue(ms < 10_000, () -> "failed after " + ms + " ms: " + all);
            } finally {
                tasks.close();
                control.close();
            }
        }
    }

    @Test
    void workerAndMasterTalkTls() throws Exception {
        Path[] pem = selfSignedPem(dir);
        String[] tls = {"--tls", "--tls-cert", pem[0].toString(), "--tls-key", pem[1].toString(), "--tls-trust",
            pem[0].toString(), "--peer-timeout", "20s"};
        Worker w = startWorker(tls);
        List<String> out = runMaster(0, w.port(), tls);
        assertTrue(out.get(out.size() - 1).contains("matches the local computation"), out.toString());
        assertEquals(0, w.status().get(30, TimeUnit.SECONDS), w.out() + " " + w.err());
    }

    /**
     * TLS counts as authentication (a worker with {@code --tls} may listen beyond this machine), so
     * it must authenticate both ends: a master that trusts the worker's certificate but presents one
     * the worker's trust file does not hold is refused, and the worker then serves its own master.
     * (Before, the worker asked no client for a certificate: anyone who could reach it sent it tasks.)
     */
    @Test
    void aWorkerWithTlsRefusesAMasterWhoseCertificateItDoesNotTrust() throws Exception {
        Path[] pem = selfSignedPem(dir);
        Path otherDir = Files.createDirectory(dir.resolve("other"));
        Path[] other = selfSignedPem(otherDir);
        Worker w = startWorker("--tls", "--tls-cert", pem[0].toString(), "--tls-key", pem[1].toString(),
                "--tls-trust", pem[0].toString(), "--peer-timeout", "20s");
        List<String> out = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> err = java.util.Collections.synchronizedList(new ArrayList<>());
        // Bounded: before the fix the worker took this master's tasks, then could not send the results
        // back (it does not trust the master's certificate) and the master waited for them.
        Future<Integer> rogue = threads.submit(() -> Main.run(new String[] {"master", "--workers",
            "127.0.0.1:" + w.port(), "--items", "3000", "--rounds", "10", "--tls", "--tls-cert", other[0].toString(),
            "--tls-key", other[1].toString(), "--tls-trust", pem[0].toString(), "--peer-timeout", "5s"},
            Output.into(out), Output.into(err)));
        int status;
        try {
            status = rogue.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            rogue.cancel(true);
            throw new AssertionError("a master whose certificate the worker does not trust was not refused within"
                    + " 30 s: " + out + "\n" + err + "\n" + w.err());
        }
        assertTrue(status != 0 && out.stream().noneMatch(l -> l.contains("matches the local computation")),
                "a master with a certificate the worker does not trust was served: " + out + "\n" + err);
        assertTrue(String.join("\n", err).contains("TLS failure"), err::toString);
        String[] tls = {"--tls", "--tls-cert", pem[0].toString(), "--tls-key", pem[1].toString(), "--tls-trust",
            pem[0].toString(), "--peer-timeout", "20s"};
        List<String> own = runMaster(0, w.port(), tls);
        assertTrue(own.get(own.size() - 1).contains("matches the local computation"), own.toString());
        assertEquals(0, w.status().get(30, TimeUnit.SECONDS), w.out() + " " + w.err());
    }

    @Test
    void listeningBeyondThisMachineNeedsASecretOrTlsOrInsecure() throws Exception {
        // the worker's check, without starting it (a worker that wrongly started would wait for a master)
        CommandLine.ParameterException refused = assertThrows(CommandLine.ParameterException.class,
                () -> parse("--bind", "0.0.0.0").options(command()));
        assertMentionsTheWaysOut(refused.getMessage());
        // the master through the command line (had it started, it would fail to connect: status 1, not 2)
        List<String> err = new ArrayList<>();
        assertEquals(2, Main.run(new String[] {"master", "--bind", "0.0.0.0", "--workers", "127.0.0.1:1",
            "--peer-timeout", "1s"}, Output.silent(), Output.into(err)), err.toString());
        assertMentionsTheWaysOut(String.join("\n", err));
        // the refusal is about authentication only: with a secret or --insecure the same binding is accepted
        NetFlags withSecret = parse("--bind", "0.0.0.0", "--secret", "0123456789abcdef");
        withSecret.options(command());
        NetFlags insecure = parse("--bind", "0.0.0.0", "--insecure");
        insecure.options(command());
    }

    private static void assertMentionsTheWaysOut(String message) {
        assertTrue(message.contains("--bind 0.0.0.0") && message.contains("--secret-file") && message.contains("--tls")
                && message.contains("--insecure"), message);
    }

    @Test
    void peerTimeoutDefaultsToTheNetworkModulesDefault() throws Exception {
        NetFlags.Both defaults = parse().options(command());
        assertEquals(NetOptions.defaults(), defaults.server());
        assertEquals(NetOptions.defaults(), defaults.client());
        assertEquals("127.0.0.1", parse().bind);
        NetFlags.Both five = parse("--peer-timeout", "5s").options(command());
        assertEquals(NetOptions.defaults().withPeerTimeout(Duration.ofSeconds(5)), five.server());
        assertEquals(NetOptions.defaults().withPeerTimeout(Duration.ofMillis(1500)),
                parse("--peer-timeout", "1500ms").options(command()).client());
    }

    @Test
    void badNetworkFlagsAreUsageErrors() {
        List<List<String>> cases = List.of(
                List.of("worker", "--secret", "short"),
                List.of("worker", "--tls"),
                List.of("worker", "--tls-cert", "x.pem"),
                List.of("worker", "--peer-timeout", "soon"),
                List.of("worker", "--secret", "0123456789abcdef", "--secret-file", "f"),
                List.of("master", "--workers", "127.0.0.1:notaport"),
                List.of("master", "--workers", "192.0.2.1:7001"));
        List<String> expected = List.of("at least 16 bytes", "--tls needs", "need --tls", "--peer-timeout",
                "not both", "host:port", "--bind");
        for (int i = 0; i < cases.size(); i++) {
            List<String> err = new ArrayList<>();
            assertEquals(2, Main.run(cases.get(i).toArray(String[]::new), Output.silent(), Output.into(err)),
                    cases.get(i) + ": " + err);
            assertTrue(String.join("\n", err).contains(expected.get(i)), cases.get(i) + ": " + err);
        }
    }

    private static NetFlags parse(String... flags) {
        WorkerCommand w = new WorkerCommand();
        new CommandLine(w).parseArgs(flags);
        return w.net;
    }

    private static Subcommand command() {
        WorkerCommand w = new WorkerCommand();
        new CommandLine(w);
        return w;
    }

    /**
     * A self-signed certificate for 127.0.0.1 made with the JDK's keytool; returns the certificate and
     * the PKCS#8 private key as PEM files.
     */
    static Path[] selfSignedPem(Path dir) throws Exception {
        Path store = dir.resolve("id.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(List.of(keytool, "-genkeypair", "-alias", "id", "-keyalg", "EC", "-groupname",
                "secp256r1", "-sigalg", "SHA256withECDSA", "-validity", "2", "-dname", "CN=localhost", "-ext",
                "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass",
                "changeit", "-keypass", "changeit")).redirectErrorStream(true).start();
        try {
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool failed: " + log);
        } finally {
            p.destroyForcibly();
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        Certificate cert = ks.getCertificate("id");
        Key key = ks.getKey("id", "changeit".toCharArray());
        Base64.Encoder b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        Path certPem = dir.resolve("cert.pem");
        Path keyPem = dir.resolve("key.pem");
        Files.writeString(certPem, "-----BEGIN CERTIFICATE-----\n" + b64.encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        Files.writeString(keyPem, "-----BEGIN PRIVATE KEY-----\n" + b64.encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return new Path[] {certPem, keyPem};
    }
}
