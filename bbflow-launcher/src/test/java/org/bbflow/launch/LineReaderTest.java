package org.bbflow.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a group's output is cut into lines and pieces. */
class LineReaderTest {
    private static final String EMOJI = "\uD83D\uDE00"; // U+1F600, two chars in UTF-16

    private static List<String> lines(String text) throws Exception {
        LineReader r = new LineReader(new BufferedReader(new StringReader(text)));
        List<String> out = new ArrayList<>();
        for (String l; (l = r.next()) != null; ) {
            out.add(l);
        }
        return out;
    }

    /** Neither half of a surrogate pair alone, at either end of a piece. */
    private static void wellFormed(List<String> pieces) {
        for (String p : pieces) {
            assertFalse(!p.isEmpty() && Character.isLowSurrogate(p.charAt(0)), "a piece begins with a lone low surrogate");
            assertFalse(!p.isEmpty() && Character.isHighSurrogate(p.charAt(p.length() - 1)),
                    "a piece ends in a lone high surrogate");
        }
    }

    /**
     * Session 14: a line cut at the limit with a character beyond the BMP across the cut printed its
     * high surrogate at the end of one piece and its low one at the start of the next ('?' twice).
     */
    @Test
    void aCutNeverSplitsASurrogatePair() throws Exception {
        String head = "x".repeat(Launcher.MAX_LINE - 1); // the emoji's high half is the limit's last char
        List<String> out = lines(head + EMOJI + "tail\nnext\n");
        wellFormed(out);
        assertEquals(List.of(head, EMOJI + "tail", "next"), out);

        // the line ending right after the pair: it ends the piece that holds the pair, no empty line after
        out = lines(head + EMOJI + "\nnext\n");
        wellFormed(out);
        assertEquals(List.of(head, EMOJI, "next"), out);

        // a pair that fits exactly: a whole piece, the line end right after it is the piece's (no empty line)
        String fits = "x".repeat(Launcher.MAX_LINE - 2) + EMOJI;
        assertEquals(List.of(fits, "next"), lines(fits + "\nnext\n"));

        // pairs all along a line three pieces long: none split, none lost, each piece within the limit
        String pairs = "y" + EMOJI.repeat(Launcher.MAX_LINE + 7);
        out = lines(pairs + "\r\nend");
        wellFormed(out);
        assertEquals(pairs, String.join("", out.subList(0, out.size() - 1)));
        assertEquals("end", out.get(out.size() - 1));
        out.forEach(p -> assertFalse(p.length() > Launcher.MAX_LINE, "a piece longer than the limit"));
    }

    /** A lone high surrogate at the very end of the output (a process killed mid-character) is not lost. */
    @Test
    void aHeldBackHalfAtTheEndIsNotLost() throws Exception {
        String head = "x".repeat(Launcher.MAX_LINE - 1);
        assertEquals(List.of(head, "\uD83D"), lines(head + "\uD83D"));
    }
}
