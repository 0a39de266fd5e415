package org.bbflow.net;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.channels.SocketChannel;
import java.text.MessageFormat;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Enumeration;
import java.util.TimeZone;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Does once per process, while file descriptors are still free, what the JDK, Netty and this
 * module would otherwise do lazily on a server's rare paths (issue 34, finding 2). A flood of
 * connections can use up every descriptor; whatever first needs one then fails, and some failures
 * are for good: a class whose static initialiser fails (the JDK's time-zone data behind
 * {@code ZonedDateTime.now()} and every log record's time stamp) is never initialised again, a
 * class that cannot be loaded stays unresolved in the code that referred to it, and a jar that
 * cannot be opened is dropped from the class path. So before the first server or client starts:
 * <ul>
 *   <li>the time-zone data of {@code java.util} and {@code java.time} are read;</li>
 *   <li>java.util.logging reads its configuration, and a record (with parameters and a stack
 *       trace) is formatted by the root handlers' formatters, without being published;</li>
 *   <li>every class of this package is loaded (from a directory each class is a file to open),
 *       and one class of each Netty jar and of bbflow-core, so that the jars are open;</li>
 *   <li>the JDK's socket close path and the HMAC of the handshake are used once.</li>
 * </ul>
 * Best effort: nothing here may stop a server from starting.
 */
final class Preload {
    private Preload() {}

    static {
        run(Preload::timeZones);
        run(Preload::logging);
        run(Preload::ownClasses);
        run(Preload::libraries);
        run(Preload::sockets);
        run(() -> Wire.mac(new byte[16], "preload", new byte[Wire.NONCE], new byte[Wire.NONCE], 1, 2));
    }

    /** Makes sure the work above has been done in this process (the first call does it, on the caller's thread). */
    static void once() {
        // the static initialiser has run
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void run(Step step) {
        try {
            step.run();
        } catch (Throwable ignored) {
            // best effort: a later failure is no worse than without this step
        }
    }

    private static void timeZones() {
        TimeZone.getDefault().getOffset(System.currentTimeMillis()); // sun.util.calendar.ZoneInfoFile
        ZoneId.systemDefault().getRules(); // java.time's zone rules provider reads its own copy
        ZonedDateTime.now().toString();
    }

    private static void logging() {
        NetServer.LOG.isLoggable(System.Logger.Level.INFO); // binds System.Logger to its backend
        MessageFormat.format("{0} {1} {2}", 1234567, 0.5, "x"); // what ThrottledLog formats with
        LogRecord r = new LogRecord(java.util.logging.Level.WARNING, "preload {0}");
        r.setParameters(new Object[] {1234567});
        r.setThrown(new IOException("preload"));
        r.setLoggerName(NetServer.LOG.getName());
        r.getSourceClassName(); // finds the caller, as publishing does
        new SimpleFormatter().format(r);
        for (Handler h : Logger.getLogger("").getHandlers()) {
            if (h.getFormatter() != null) h.getFormatter().format(r);
        }
    }

    /** Loads (without initialising) every class of this package, from its directory or jar. */
    private static void ownClasses() throws Exception {
        ClassLoader loader = Preload.class.getClassLoader();
        String pkg = Preload.class.getPackageName();
        String path = pkg.replace('.', '/') + '/';
        URL here = Preload.class.getResource("Preload.class");
        if (here == null) return;
        if ("file".equals(here.getProtocol())) {
            File[] files = new File(here.toURI()).getParentFile().listFiles((d, name) -> name.endsWith(".class"));
            if (files == null) return;
            for (File f : files) load(pkg + '.' + f.getName().substring(0, f.getName().length() - 6), loader);
        } else if ("jar".equals(here.getProtocol())) {
            String jar = here.getPath(); // file:/.../bbflow-network.jar!/org/bbflow/net/Preload.class
            try (JarFile j = new JarFile(new File(new URI(jar.substring(0, jar.indexOf("!/")))))) {
                for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
                    String name = e.nextElement().getName();
                    if (name.startsWith(path) && name.endsWith(".class") && name.indexOf('/', path.length()) < 0) {
                        load(name.substring(0, name.length() - 6).replace('/', '.'), loader);
                    }
                }
            }
        }
    }

    /** One class from each jar the event loops reach into (opening a jar needs a descriptor; loading from an open one does not). */
    private static void libraries() {
        ClassLoader loader = Preload.class.getClassLoader();
        for (String c : new String[] {
                "org.bbflow.core.FlowException",
                "io.netty.handler.timeout.IdleStateHandler", "io.netty.handler.ssl.SslHandler",
                "io.netty.handler.codec.DecoderException", "io.netty.resolver.DefaultAddressResolverGroup",
                "io.netty.channel.StacklessClosedChannelException", "io.netty.buffer.AdaptiveByteBufAllocator",
                "io.netty.util.internal.ThrowableUtil"}) {
            load(c, loader);
        }
    }

    /** The JDK's socket classes and their close path. */
    private static void sockets() throws IOException {
        try (SocketChannel ch = SocketChannel.open()) {
            ch.configureBlocking(false);
        }
    }

    private static void load(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
        } catch (Throwable ignored) {
            // not there (an optional class): nothing to preload
        }
    }
}
