package org.bbflow.examples;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option value types of the examples: whole numbers with underscores, byte sizes, durations. */
final class Converters {
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

    /** A duration: {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601 such as {@code PT30S}. */
    static final class Time implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            String s = text.trim().toLowerCase(Locale.ROOT);
            try {
                if (s.startsWith("pt")) {
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
            } catch (NumberFormatException | DateTimeParseException e) {
                // reported below
            }
            throw new TypeConversionException("'" + text + "' is not a duration like 500ms, 30s or 2m");
        }
    }
}
