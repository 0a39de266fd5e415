package org.bbflow.examples;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line of one subcommand: positional words and {@code --name value},
 * {@code --name=value} or bare {@code --flag} options. Typed getters give a clear
 * {@link IllegalArgumentException} naming the option when a value is malformed, and
 * {@link #rejectUnknown(String, Set)} catches misspelt options.
 *
 * <pre>{@code
 * Args a = Args.parse(new String[] {"--items", "200", "--quiet", "extra"});
 * int items = a.intOption("items", 1000);   // 200
 * boolean quiet = a.flag("quiet");          // true
 * List<String> rest = a.positional();       // [extra]
 * }</pre>
 */
public final class Args {
    private final List<String> positional;
    private final Map<String, String> options;

    private Args(List<String> positional, Map<String, String> options) {
        this.positional = positional;
        this.options = options;
    }

    /**
     * Parses a command line. An option followed by a word that does not start with {@code --} takes
     * that word as its value; otherwise it is a flag. {@code --} ends the options.
     */
    public static Args parse(String... args) {
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        boolean onlyPositional = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (onlyPositional || !a.startsWith("--") || a.equals("-")) {
                positional.add(a);
            } else if (a.equals("--")) {
                onlyPositional = true;
            } else {
                String body = a.substring(2);
                int eq = body.indexOf('=');
                if (eq >= 0) {
                    options.put(body.substring(0, eq), body.substring(eq + 1));
                } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                    options.put(body, args[++i]);
                } else {
                    options.put(body, "");
                }
            }
        }
        return new Args(Collections.unmodifiableList(positional), Collections.unmodifiableMap(options));
    }

    /** The words that are not options, in order. */
    public List<String> positional() {
        return positional;
    }

    /** The positional word at {@code index}, or {@code fallback} if there are fewer. */
    public String positional(int index, String fallback) {
        return index < positional.size() ? positional.get(index) : fallback;
    }

    /** These arguments without the first positional word (the subcommand's own arguments). */
    public Args shift() {
        return new Args(positional.isEmpty() ? positional : positional.subList(1, positional.size()), options);
    }

    /** Whether the option was given (with or without a value). */
    public boolean has(String name) {
        return options.containsKey(name);
    }

    /** True if {@code --name} was given without a value or with {@code true}/{@code yes}. */
    public boolean flag(String name) {
        String v = options.get(name);
        if (v == null) {
            return false;
        }
        switch (v.toLowerCase(Locale.ROOT)) {
            case "":
            case "true":
            case "yes":
                return true;
            case "false":
            case "no":
                return false;
            default:
                throw new IllegalArgumentException("--" + name + " is a flag; it takes no value (got '" + v + "')");
        }
    }

    /** The option's text, or {@code fallback}. */
    public String option(String name, String fallback) {
        String v = options.get(name);
        if (v != null && v.isEmpty()) {
            throw new IllegalArgumentException("--" + name + " needs a value");
        }
        return v == null ? fallback : v;
    }

    /** The option as an int (underscores allowed: {@code 1_000_000}), or {@code fallback}. */
    public int intOption(String name, int fallback) {
        long v = longOption(name, fallback);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--" + name + " is out of range: " + v);
        }
        return (int) v;
    }

    /** The option as a long (underscores allowed), or {@code fallback}. */
    public long longOption(String name, long fallback) {
        String v = option(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " needs a whole number, got '" + v + "'");
        }
    }

    /** The option as a double, or {@code fallback}. */
    public double doubleOption(String name, double fallback) {
        String v = option(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " needs a number, got '" + v + "'");
        }
    }

    /** A byte size with an optional {@code k}, {@code m} or {@code g} suffix (powers of 1024). */
    public long sizeOption(String name, long fallback) {
        String v = option(name, null);
        if (v == null) {
            return fallback;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        long unit = 1;
        if (!s.isEmpty()) {
            char last = s.charAt(s.length() - 1);
            unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : last == 'g' ? 1L << 30 : 1;
            if (unit != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        try {
            return Math.multiplyExact(Long.parseLong(s.replace("_", "")), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--" + name + " needs a size like 4096, 64k, 16m or 1g, got '" + v + "'");
        }
    }

    /**
     * Fails on an option not in {@code known}, naming it.
     *
     * @param command the subcommand, for the message
     */
    public void rejectUnknown(String command, Set<String> known) {
        for (String name : options.keySet()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + " for '" + command
                        + "'; see: " + command + " --help");
            }
        }
    }
}
