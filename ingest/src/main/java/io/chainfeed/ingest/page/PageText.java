package io.chainfeed.ingest.page;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/** Character-level normalisation shared by the text and HTML paths. */
final class PageText {

    /**
     * Marks a boundary between two adjacent HTML elements whose texts touch without
     * whitespace (e.g. {@code <span>NVIDIA</span><span>NVDA</span>}). Scraped text never
     * contains it; the splitters use it as a hint and every prose field drops it.
     */
    static final char MARK = '\u001F';

    /** A ticker as readers write it: ANET, 2345.TW, 000660.KS, BRK-B. */
    static final Pattern TICKER = Pattern.compile("[A-Z0-9]{1,10}(?:[.\\-][A-Z0-9]{1,5})?");

    /**
     * A parenthesis on one line, e.g. "(ANET)" or "(remote direct memory access)"; group
     * 1 is the inside.
     */
    static final Pattern PAREN = Pattern.compile("\\(([^()\\n]{1,120})\\)");

    /** How far back (chars) from a parenthesis names and expansions are looked for. */
    static final int WINDOW = 300;

    private static final Pattern DISCLAIMER = Pattern.compile("research,?\\s+not\\s+(?:investment\\s+)?advice");

    private PageText() {
    }

    /**
     * Cleans one line: exotic spaces (no-break, thin, ideographic, tab) become a plain
     * space, invisible characters (zero-width, BOM, soft hyphen, controls other than
     * {@link #MARK}) are removed, runs of whitespace and marks collapse (a run holding
     * any whitespace becomes one space, a run of marks one mark), and spaces and marks
     * are trimmed from both ends.
     */
    static String cleanLine(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        boolean pendingSpace = false;
        boolean pendingMark = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == MARK) {
                pendingMark = true;
            }
            else if (isSpace(c)) {
                pendingSpace = true;
            }
            else if (isInvisible(c)) {
                continue;
            }
            else {
                if (out.length() > 0) {
                    if (pendingSpace) {
                        out.append(' ');
                    }
                    else if (pendingMark) {
                        out.append(MARK);
                    }
                }
                pendingSpace = false;
                pendingMark = false;
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u00A0' || c == '\u2007' || c == '\u202F'
                || c == '\u0085';
    }

    private static boolean isInvisible(char c) {
        return c == '\u200B' || c == '\u200C' || c == '\u200D' || c == '\u2060' || c == '\uFEFF' || c == '\u00AD'
                || (Character.isISOControl(c) && c != MARK);
    }

    /** Removes boundary marks: the text as a reader sees it. */
    static String plain(String s) {
        return s.indexOf(MARK) < 0 ? s : s.replace(String.valueOf(MARK), "");
    }

    /**
     * A comparison form: marks dropped, curly quotes straightened, dashes turned into
     * '-', lower case (ROOT), whitespace collapsed, trimmed.
     */
    static String fold(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case MARK -> {
                }
                case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032' -> b.append('\'');
                case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033' -> b.append('"');
                case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212' -> b.append('-');
                default -> b.append(c);
            }
        }
        return b.toString().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim();
    }

    /**
     * {@link #fold} without trailing ':' or '.': how headings and fixed lines are
     * compared.
     */
    static String foldLine(String s) {
        return fold(s).replaceAll("[:.]+$", "").trim();
    }

    /**
     * A matching key for names and titles: NFKC, folded, every run of anything but
     * letters and digits turned into one space. "AI Ethernet (RoCE)" gives "ai ethernet
     * roce".
     */
    static String key(String s) {
        String folded = fold(Normalizer.normalize(plain(s), Normalizer.Form.NFKC));
        return folded.replaceAll("[^\\p{L}\\p{N}]+", " ").trim();
    }

    /** True when the line carries a "research, not advice" disclaimer. */
    static boolean isDisclaimer(String line) {
        return line.length() <= 2_000 && DISCLAIMER.matcher(fold(line)).find();
    }

    /**
     * Whole-word (word = letters and digits) prefix or suffix relation between two keys.
     */
    static boolean wordPrefixOrSuffix(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        String shorter = a.length() <= b.length() ? a : b;
        String longer = a.length() <= b.length() ? b : a;
        if (shorter.equals(longer)) {
            return true;
        }
        return longer.startsWith(shorter + " ") || longer.endsWith(" " + shorter);
    }

    /** Whitespace-separated words in a string (0 for a blank one). */
    static int words(String s) {
        String t = s.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

}
