package org.bbflow.net.dist;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compressed host lists ({@code SLURM_JOB_NODELIST}), expanded in Slurm's order:
 * {@code n[1-3,7]} is n1, n2, n3, n7; {@code rack[1-2]-n[01-02]} is rack1-n01, rack1-n02, rack2-n01,
 * rack2-n02 (the last bracket varies fastest); ranges keep their zero padding ({@code [08-10]} is 08,
 * 09, 10); several lists are separated by commas outside brackets ({@code a1,b[2-3]}). A bracket
 * holds only numbers and ranges: an empty one, an empty element, a nested bracket or a letter is
 * refused, never read as part of a host name.
 */
final class SlurmHostList {
    /** Refuses lists that would expand beyond this many hosts (a typo such as {@code [1-100000000]}). */
    static final int MAX_HOSTS = 1 << 20;

    private SlurmHostList() {}

    /**
     * The hosts of {@code list}, in order.
     *
     * @throws IllegalArgumentException if the list is malformed (unbalanced or nested brackets, a bad
     *     range, an empty bracket or element)
     */
    static List<String> expand(String list) {
        List<String> hosts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("host list '" + list + "': ']' without '['");
                }
            } else if (c == ',' && depth == 0) {
                String one = list.substring(start, i).trim();
                if (!one.isEmpty()) {
                    expandOne(list, one, hosts);
                }
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("host list '" + list + "': '[' without ']'");
        }
        return hosts;
    }

    /** One name with brackets: the product of its bracket sets, the last varying fastest. */
    private static void expandOne(String list, String pattern, List<String> out) {
        List<String> prefixes = new ArrayList<>(List.of(""));
        int i = 0;
        while (i < pattern.length()) {
            int open = pattern.indexOf('[', i);
            String literal = pattern.substring(i, open < 0 ? pattern.length() : open);
            prefixes.replaceAll(p -> p + literal);
            if (open < 0) {
                break;
            }
            int close = pattern.indexOf(']', open);
            List<String> choices = choices(list, pattern.substring(open + 1, close));
            if (out.size() + (long) prefixes.size() * choices.size() > MAX_HOSTS) { // before making them
                throw tooMany(list);
            }
            List<String> next = new ArrayList<>();
            for (String p : prefixes) {
                for (String c : choices) {
                    next.add(p + c);
                }
            }
            prefixes = next;
            i = close + 1;
        }
        out.addAll(prefixes);
    }

    private static IllegalArgumentException tooMany(String list) {
        return new IllegalArgumentException("host list '" + list + "' expands to more than " + MAX_HOSTS + " hosts");
    }

    private static List<String> choices(String list, String set) {
        List<String> choices = new ArrayList<>();
        // split keeping empty parts: "[1,]" and "[]" are malformed, not the bare prefix as a host
        for (String part : set.split(",", -1)) {
            String p = part.trim();
            // Slurm's brackets hold numbers and ranges only: anything else ("[]", "[1,]", "[[1]]", "[b]")
            // made a host name of the prefix or of the brackets themselves, a silent wrong placement
            if (!p.matches("[0-9]+(-[0-9]+)?")) {
                throw new IllegalArgumentException("host list '" + list + "': bad range '" + p + "' in '[" + set
                        + "]' (a bracket holds numbers and ranges such as 1-3, separated by ',')");
            }
            int dash = p.indexOf('-');
            if (dash < 0) {
                if (choices.size() >= MAX_HOSTS) {
                    throw tooMany(list);
                }
                choices.add(p);
                continue;
            }
            String a = p.substring(0, dash);
            String b = p.substring(dash + 1);
            long from;
            long to;
            try {
                from = Long.parseLong(a);
                to = Long.parseLong(b);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("host list '" + list + "': bad range '" + p + "'");
            }
            if (to < from || to - from >= MAX_HOSTS) {
                throw new IllegalArgumentException("host list '" + list + "': bad range '" + p + "'");
            }
            if (choices.size() + (to - from) >= MAX_HOSTS) {
                throw tooMany(list);
            }
            int width = a.length();
            for (long n = from; n <= to; n++) {
                String s = Long.toString(n);
                choices.add(s.length() < width ? "0".repeat(width - s.length()) + s : s);
            }
        }
        return choices;
    }
}
