package org.bbflow.net;

import java.lang.System.Logger.Level;
import java.text.MessageFormat;
import java.util.HashMap;
import java.util.Map;
import java.util.ResourceBundle;

/**
 * The network module's log: at most one record per second per kind of event (a flood of bad
 * connections logs one line a second, each saying how many like it were left out), and a log call
 * never throws, whatever the logging backend does (a handler that fails must not stop an event loop).
 *
 * <p>It is a {@link System.Logger} itself, so that a backend inferring where a record comes from
 * (java.util.logging's source class and method) skips its frames and names the class that logged,
 * not this one. Numbers in the arguments are written without grouping, so a channel id reads the
 * same ({@code 791371405}) in every record.
 */
final class ThrottledLog implements System.Logger {
    private final System.Logger log;
    private final long intervalNanos;
    private final Map<String, long[]> kinds = new HashMap<>(); // kind -> {last logged at, suppressed since, suppressed ever}

    ThrottledLog(System.Logger log, long intervalNanos) {
        this.log = log;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Logs {@code format} (a {@link MessageFormat} pattern) with {@code args} unless a record of the
     * same {@code kind} was logged less than the interval ago; then only counts it.
     */
    void log(Level level, String kind, String format, Object... args) {
        try {
            if (!log.isLoggable(level)) return;
            long suppressed;
            synchronized (kinds) {
                long now = System.nanoTime();
                long[] k = kinds.get(kind);
                if (k == null) {
                    kinds.put(kind, k = new long[] {now - intervalNanos, 0, 0});
                }
                if (now - k[0] < intervalNanos) {
                    k[1]++;
                    k[2]++;
                    return;
                }
                k[0] = now;
                suppressed = k[1];
                k[1] = 0;
            }
            String msg = args.length == 0 ? format : MessageFormat.format(format, plain(args));
            if (suppressed > 0) msg += " (" + suppressed + " more like this not logged since the previous one)";
            log.log(level, msg);
        } catch (Throwable ignored) {
            // logging is best effort: it must never take down the thread that logs
        }
    }

    /** Forgets what was logged, so the next record of every kind is logged (for tests). */
    void forget() {
        synchronized (kinds) {
            kinds.clear();
        }
    }

    /** How many records of {@code kind} were left out so far (for tests). */
    long suppressed(String kind) {
        synchronized (kinds) {
            long[] k = kinds.get(kind);
            return k == null ? 0 : k[2];
        }
    }

    /** Numbers as plain digits ({@link MessageFormat} would group them by the locale: 791,371,405). */
    private static Object[] plain(Object[] args) {
        Object[] p = args.clone();
        for (int i = 0; i < p.length; i++) {
            if (p[i] instanceof Number) p[i] = String.valueOf(p[i]);
        }
        return p;
    }

    @Override
    public String getName() {
        return log.getName();
    }

    @Override
    public boolean isLoggable(Level level) {
        return log.isLoggable(level);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        log.log(level, bundle, msg, thrown);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        log.log(level, bundle, format, params);
    }

    /** Logs {@code format} with {@code args} without throttling, but like every call here never throws. */
    static void quiet(System.Logger log, Level level, String format, Object... args) {
        try {
            if (log.isLoggable(level)) log.log(level, MessageFormat.format(format, plain(args)));
        } catch (Throwable ignored) {
            // best effort
        }
    }

    /** Logs {@code message} with a stack trace of {@code cause}, throttled like {@link #log}. */
    void log(Level level, String kind, String message, Throwable cause) {
        try {
            if (!log.isLoggable(level)) return;
            synchronized (kinds) {
                long now = System.nanoTime();
                long[] k = kinds.computeIfAbsent(kind, x -> new long[] {now - intervalNanos, 0, 0});
                if (now - k[0] < intervalNanos) {
                    k[1]++;
                    k[2]++;
                    return;
                }
                k[0] = now;
                if (k[1] > 0) message += " (" + k[1] + " more like this not logged since the previous one)";
                k[1] = 0;
            }
            log.log(level, message, cause);
        } catch (Throwable ignored) {
            // best effort, as above
        }
    }
}
