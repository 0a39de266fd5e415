package org.bbflow.net;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;

/**
 * The server of {@link FdExhaustionTest}, run in a child JVM under a low limit of open files. It
 * does nothing before the flood that a server would not do anyway (no log record, no clock read).
 * Prints {@code LISTENING <port> FDS <open> LIMIT <max>}, then answers commands on standard input:
 * <ul>
 * <li>{@code CHECK}: logs a record through {@link System.Logger} and reads {@code ZonedDateTime.now()};
 *     prints {@code CHECK ok} or {@code CHECK broken: <what failed>};
 * <li>{@code INLET <id>}: registers an inlet of longs and drains it; prints {@code DONE <id> <count> <sum>}
 *     or {@code FAILED <id> <message>}.
 * </ul>
 */
public final class FdStarvedServer {
    private FdStarvedServer() {}

    public static void main(String[] args) throws Exception {
        NetOptions opts = NetOptions.defaults().withHandshakeTimeout(Duration.ofSeconds(20));
        try (NetServer server = NetServer.bind("127.0.0.1", 0, opts);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
            HostileServer.say("LISTENING " + server.port() + " FDS " + openFds() + " LIMIT " + fdLimit());
            for (String line; (line = in.readLine()) != null; ) {
                String[] w = line.trim().split(" ");
                switch (w[0]) {
                    case "CHECK" -> check();
                    case "INLET" -> HostileServer.drain(server.inlet(Integer.parseInt(w[1]), Codec.longs()));
                    default -> HostileServer.say("UNKNOWN " + line);
                }
            }
        }
        System.exit(0);
    }

    private static void check() {
        StringBuilder broken = new StringBuilder();
        try {
            System.getLogger("org.bbflow.net.test").log(System.Logger.Level.INFO, "a record after the flood");
        } catch (Throwable e) {
            broken.append(" logging: ").append(e);
        }
        try {
            ZonedDateTime.now().toString();
        } catch (Throwable e) {
            broken.append(" ZonedDateTime.now(): ").append(e);
        }
        HostileServer.say(broken.length() == 0 ? "CHECK ok" : "CHECK broken:" + broken);
    }

    static int openFds() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    static String fdLimit() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (l.startsWith("Max open files")) return l.replaceAll("\\s+", " ").split(" ")[3];
            }
        } catch (Exception e) {
            // not Linux
        }
        return "?";
    }
}
