package org.bbflow.examples;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.bbflow.net.NetOptions;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Option value types of the examples: whole numbers with underscores, byte sizes, durations. Every
 * duration an option takes, whatever its type, is bounded here, in one place: at most {@link #MAX_TIME}
 * (365 days, the network's {@link NetOptions#MAX_DURATION}: deadlines are counted in nanoseconds, and
 * a run of {@code 1e300} seconds is no run but a hang); NaN, infinities and negative durations are
 * refused, and so is zero where the option needs a positive one. picocli makes the refusal a usage
 * error (exit status 2) naming the option.
 */
final class Converters {
    /** The longest duration any option takes. */
    static final Duration MAX_TIME = NetOptions.MAX_DURATION;

    private Converters() {
    }

    /** Whole numbers may be written {@code 1_000_000}; registered for int and long options. */
    static void register(CommandLine cli) {
        cli.registerConverter(Integer.class, Converters::parseInt);
        cli.registerConverter(Integer.TYPE, Converters::parseInt);
        cli.registerConverter(Long.class, Converters::parseLong);
        cli.registerConverter(Long.TYPE, Converters::parseLong);
    }

    static Integer parseInt(String text) {
        long v = parseLong(text);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new TypeConversionException("'" + text + "' is too large");
        }
        return (int) v;
    }

    static Long parseLong(String text) {
        try {
            return Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is not a whole number");
        }
    }

    /** A byte size: {@code 4096}, {@code 64k}, {@code 16m}, {@code 1g} (powers of 1024; a trailing b is allowed). */
    static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            String s = text.trim().toLowerCase(Locale.ROOT);
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
                throw new TypeConversionException("'" + text + "' is not a size like 4096, 64k, 16m or 1g");
            }
        }
    }

    /**
     * A duration from 0 to {@link #MAX_TIME}: {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 such
     * as {@code PT30S}.
     */
    static class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            Duration d = parse(text);
            if (d == null) {
                throw new TypeConversionException("'" + text + "' is not a duration like 500ms, 30s or 2m");
            }
            if (d.isNegative() || d.compareTo(MAX_TIME) > 0 || d.isZero() && !zeroAllowed()) {
                throw new TypeConversionException("'" + text + "' is out of range: " + (zeroAllowed()
                        ? "a duration must be from 0 to 365 days" : "a time limit must be more than 0 and at most 365 days"));
            }
            return d;
        }

        /** Whether 0 is a valid value (a grace, say); not for a time limit. */
        boolean zeroAllowed() {
            return true;
        }

        private static Duration parse(String text) {
            String s = text.trim().toLowerCase(Locale.ROOT);
            try {
                if (s.startsWith("pt") || s.startsWith("-pt")) {
                    return Duration.parse(text.trim());
                }
                if (s.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
                }
                if (s.endsWith("s")) {
                    return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)));
                }
                if (s.endsWith("m")) {
                    return Duration.ofMinutes(Long.parseLong(s.substring(0, s.length() - 1)));
                }
            } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
                // not a duration, or one beyond Duration's range
            }
            return null;
        }
    }

    /** A duration above 0 and at most {@link #MAX_TIME}: a time limit or a timeout. */
    static final class PositiveTime extends Time {
        @Override
        boolean zeroAllowed() {
            return false;
        }
    }

    /**
     * A number of seconds, {@code 2.5} or {@code 1e-3}: from 1 ns to {@link #MAX_TIME}. NaN and the
     * infinities, which {@link Double#parseDouble} accepts, are out of range.
     */
    static final class Seconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            double v;
            try {
                v = Double.parseDouble(text.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + text + "' is not a number of seconds like 4 or 0.5");
            }
            if (!(v >= 1e-9 && v <= MAX_TIME.getSeconds())) {
                throw new TypeConversionException("'" + text + "' is out of range: from 1e-9 (1 ns) to "
                        + MAX_TIME.getSeconds() + " (365 days) seconds");
            }
            return v;
        }
    }
}
