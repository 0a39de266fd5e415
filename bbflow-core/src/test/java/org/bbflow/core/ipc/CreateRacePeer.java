package org.bbflow.core.ipc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A peer JVM in {@code create-race} mode ({@link IpcTestPeer}) and its pipes: the test sends it lines
 * and reads what it prints, so that no sleep decides where it is (IpcCreateRaceTest,
 * IpcCreateLeftoverTest).
 */
final class CreateRacePeer implements AutoCloseable {
    final Process process;
    final BufferedReader out;
    final Writer in;

    CreateRacePeer() throws IOException {
        process = IpcTwoProcessTest.startPeer("create-race", ".", "0");
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    void send(String line) throws IOException {
        in.write(line + "\n");
        in.flush();
    }

    String line() throws IOException, InterruptedException {
        String line = out.readLine();
        if (line == null) {
            throw new AssertionError("peer " + process.pid() + " ended, exit "
                + (process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : "none"));
        }
        return line;
    }

    /** kill -9 (destroyForcibly is SIGKILL on Linux), and wait until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "peer " + process.pid() + " did not die");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "peer " + process.pid();
    }
}
