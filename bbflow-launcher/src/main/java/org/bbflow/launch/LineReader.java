package org.bbflow.launch;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * The lines of a group's output, each at most {@link Launcher#MAX_LINE} characters: a longer line
 * (binary output, a progress bar without line ends) comes in pieces rather than being held whole.
 * Ends lines at {@code \n}, {@code \r} or {@code \r\n}, as {@link BufferedReader#readLine()} does,
 * without waiting for the character after a {@code \r}. A cut never splits a surrogate pair.
 */
final class LineReader {
    private final BufferedReader in;
    private final StringBuilder line = new StringBuilder();
    private boolean afterCr;
    private boolean afterPiece;
    /** A high surrogate held back from a piece cut at the limit: it begins the next piece, or 0. */
    private char carried;

    LineReader(BufferedReader in) {
        this.in = in;
    }

    /** The next line, or null at the end of the output. */
    String next() throws IOException {
        line.setLength(0);
        if (carried != 0) {
            line.append(carried);
            carried = 0;
        }
        for (int c; (c = in.read()) != -1; ) {
            // "\r\n" is one line end; so is one right after a piece cut at the limit (no empty line)
            boolean skip = afterCr && c == '\n' || afterPiece && (c == '\n' || c == '\r');
            afterCr = c == '\r';
            afterPiece = false;
            if (skip) {
                continue;
            }
            if (c == '\n' || c == '\r') {
                return line.toString();
            }
            line.append((char) c);
            if (line.length() >= Launcher.MAX_LINE) {
                // never between the two halves of a character beyond the BMP (an emoji): each piece would
                // print a lone surrogate ('?'); the high one goes into the next piece, with its low one
                // (so this piece is one shorter, and a line end right after it is the next piece's end)
                if (Character.isHighSurrogate(line.charAt(line.length() - 1))) {
                    carried = line.charAt(line.length() - 1);
                    line.setLength(line.length() - 1);
                } else {
                    afterPiece = true;
                }
                return line.toString();
            }
        }
        return line.length() > 0 ? line.toString() : null;
    }
}
