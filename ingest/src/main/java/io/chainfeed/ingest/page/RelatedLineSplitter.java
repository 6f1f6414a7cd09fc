package io.chainfeed.ingest.page;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits a related-terms line where each title runs into its one-line summary and the
 * summary into the next title ("CoWoSCoWoS is ... interposer.Memory wallThe widening gap
 * ...").
 *
 * <p>
 * Items end where '.', '!' or '?' is immediately followed (no space) by an upper-case
 * letter, a digit or an opening quote; decimals ("2.5D") and one-letter abbreviations
 * ("U.S.") are not ends unless a known term title starts right after. Inside an item the
 * title/summary boundary is, in order: the longest known term title or alias that starts
 * the item and runs straight into an upper-case letter, digit or quote; an HTML element
 * boundary; the summary repeating the title ("InfiniBandInfiniBand is"); else the
 * earliest ')' followed by an upper-case letter or a lower-case letter followed by a
 * capitalised ordinary word ("fabricThe", "scale-upConnecting") or a letter or digit
 * followed by an opening double quote; else, last, an upper-case letter or digit followed
 * by such a word ("CoWoSThe"). Camel case inside a name ("InfiniBand") is not a boundary
 * because "Band" runs into another capital. Immutable and thread-safe.
 */
final class RelatedLineSplitter {

    /** One related item as written: title and summary, both non-empty. */
    record Item(String title, String summary) {
    }

    /**
     * Longest title the repetition rule looks for; keeps that rule linear on huge items.
     */
    private static final int MAX_TITLE = 200;

    /** Known titles and aliases, longest first. */
    private final List<String> knownTitles;

    RelatedLineSplitter(List<String> knownTitles) {
        this.knownTitles = knownTitles.stream()
            .filter(t -> t != null && !t.isBlank())
            .map(String::strip)
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
            .toList();
    }

    /** Splits a line into raw items (marks kept); never empty items. */
    List<String> items(String line) {
        List<String> items = new ArrayList<>();
        int start = 0;
        int n = line.length();
        for (int p = 0; p < n; p++) {
            char c = line.charAt(p);
            if (c != '.' && c != '!' && c != '?') {
                continue;
            }
            int q = p + 1;
            while (q < n && line.charAt(q) == PageText.MARK) {
                q++;
            }
            if (q >= n) {
                continue;
            }
            char d = line.charAt(q);
            if (!(Character.isUpperCase(d) || Character.isDigit(d) || isOpenQuote(d))) {
                continue;
            }
            boolean knownNext = knownTitleAt(line, q) != null;
            if (!knownNext && c == '.' && p > 0) {
                char before = line.charAt(p - 1);
                if (Character.isDigit(before) && Character.isDigit(d)) {
                    continue;
                }
                if (Character.isUpperCase(before) && (p < 2 || !Character.isLetter(line.charAt(p - 2)))) {
                    continue;
                }
            }
            addItem(items, line.substring(start, p + 1));
            start = q;
        }
        addItem(items, line.substring(start));
        return items;
    }

    private static void addItem(List<String> items, String raw) {
        String cleaned = PageText.cleanLine(raw);
        if (!cleaned.isEmpty()) {
            items.add(cleaned);
        }
    }

    /**
     * Splits one item into title and summary.
     * @param rawItem an item from {@link #items}
     * @return the item, or null when no boundary can be found
     */
    Item split(String rawItem) {
        String text = PageText.plain(rawItem);
        int n = text.length();

        String known = knownTitleAt(text, 0);
        if (known != null) {
            return item(text, known.length());
        }

        int mark = rawItem.indexOf(PageText.MARK);
        if (mark > 0) {
            Item viaMark = item(text, PageText.plain(rawItem.substring(0, mark)).length());
            if (viaMark != null) {
                return viaMark;
            }
        }

        for (int len = Math.min(n / 2, MAX_TITLE); len >= 2; len--) {
            if (!Character.isWhitespace(text.charAt(len - 1)) && text.regionMatches(len, text, 0, len)
                    && (2 * len == n || !Character.isLetterOrDigit(text.charAt(2 * len)))) {
                return item(text, len);
            }
        }

        int secondary = -1;
        for (int i = 1; i < n; i++) {
            char prev = text.charAt(i - 1);
            char c = text.charAt(i);
            if (prev == ')' && (Character.isUpperCase(c) || Character.isDigit(c))) {
                return item(text, i);
            }
            if (Character.isLetterOrDigit(prev) && (c == '\u201C' || c == '"')) {
                return item(text, i);
            }
            if (!Character.isUpperCase(c)) {
                continue;
            }
            int w = i + 1;
            while (w < n && Character.isLowerCase(text.charAt(w))) {
                w++;
            }
            int wordLen = w - i;
            boolean wordEnds = w == n || !Character.isLetterOrDigit(text.charAt(w));
            if (!wordEnds) {
                continue;
            }
            if (Character.isLowerCase(prev)) {
                boolean article = wordLen == 1 && (c == 'A' || c == 'I') && w < n && text.charAt(w) == ' ';
                if (wordLen >= 2 || article) {
                    return item(text, i);
                }
            }
            else if (secondary < 0 && wordLen >= 2 && (Character.isUpperCase(prev) || Character.isDigit(prev))) {
                secondary = i;
            }
        }
        return secondary > 0 ? item(text, secondary) : null;
    }

    private static Item item(String text, int at) {
        if (at <= 0 || at >= text.length()) {
            return null;
        }
        String title = PageText.cleanLine(text.substring(0, at));
        String summary = PageText.cleanLine(text.substring(at));
        if (title.isEmpty() || summary.isEmpty() || title.chars().noneMatch(Character::isLetterOrDigit)) {
            return null;
        }
        return new Item(title, summary);
    }

    /**
     * The longest known title that starts at {@code at} (case-insensitive) and runs
     * straight into an upper-case letter, a digit, a quote or a mark; null when none
     * does.
     */
    private String knownTitleAt(String s, int at) {
        for (String t : knownTitles) {
            if (s.regionMatches(true, at, t, 0, t.length())) {
                int after = at + t.length();
                if (after >= s.length()) {
                    continue;
                }
                char next = s.charAt(after);
                char last = t.charAt(t.length() - 1);
                boolean ok;
                if (next == PageText.MARK || isOpenQuote(next)) {
                    ok = true;
                }
                else if (Character.isDigit(next)) {
                    ok = !Character.isLetterOrDigit(last);
                }
                else if (Character.isUpperCase(next)) {
                    // "CoWoSThe" is a boundary, "NV|Link" is not: after a capital or
                    // digit the next
                    // capital must start an ordinary word or repeat the title.
                    ok = !(Character.isUpperCase(last) || Character.isDigit(last)) || ordinaryWordAt(s, after)
                            || s.regionMatches(true, after, t, 0, t.length());
                }
                else {
                    ok = false;
                }
                if (ok) {
                    return s.substring(at, after);
                }
            }
        }
        return null;
    }

    /**
     * A capital followed by at least one lower-case letter and then no letter or digit.
     */
    private static boolean ordinaryWordAt(String s, int i) {
        if (i >= s.length() || !Character.isUpperCase(s.charAt(i))) {
            return false;
        }
        int w = i + 1;
        while (w < s.length() && Character.isLowerCase(s.charAt(w))) {
            w++;
        }
        return w - i >= 2 && (w == s.length() || !Character.isLetterOrDigit(s.charAt(w)));
    }

    private static boolean isOpenQuote(char c) {
        return c == '"' || c == '\u201C' || c == '\u2018' || c == '\'';
    }

}
