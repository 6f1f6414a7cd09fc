package io.chainfeed.api.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The user's search text, parsed by a tiny, total grammar: it accepts every string and
 * never produces query syntax for Elasticsearch (each piece is later passed as the text
 * of a match or term query).
 *
 * <ul>
 * <li>{@code "two words"}: a phrase (an unclosed quote runs to the end of the text);</li>
 * <li>{@code -word}, {@code -"a phrase"}: excluded (a {@code -} inside a word, as in
 * {@code co-packaged}, is part of the word);</li>
 * <li>{@code a OR b}, {@code a | b}: either one; otherwise every piece is required (with
 * a fall-back to any piece when nothing has all of them);</li>
 * <li>everything else is a word, taken literally: slashes, colons, brackets, backslashes,
 * {@code AT&T}, {@code 2345.TW}, emoji. A piece without a letter or digit is
 * dropped.</li>
 * </ul>
 *
 * @param groups required groups, each a list of alternatives (OR)
 * @param excluded excluded pieces
 */
public record QueryText(List<List<Piece>> groups, List<Piece> excluded) {

    private static final Pattern HAS_ALNUM = Pattern.compile("[\\p{L}\\p{N}]");

    /**
     * A listing symbol as the reference data writes them: ANET, 2345.TW, 000660.KS,
     * BRK-B.
     */
    private static final Pattern TICKER = Pattern.compile("[A-Z0-9]{1,7}(?:[.\\-][A-Z0-9]{1,4})?");

    /**
     * One word or phrase.
     *
     * @param text as typed, without quotes or the leading {@code -}
     * @param phrase quoted
     */
    public record Piece(String text, boolean phrase) {
        /**
         * @return whether it looks like a listing symbol or an acronym (upper case,
         * digits): never fuzzy
         */
        public boolean tickerLike() {
            return !phrase && TICKER.matcher(text).matches();
        }

        /**
         * @return the words of the piece, lower-cased, without punctuation; the key used
         * for synonyms
         */
        public List<String> words() {
            return QueryText.words(text);
        }
    }

    /**
     * @return whether nothing is left to search for
     */
    public boolean isEmpty() {
        return groups.isEmpty() && excluded.isEmpty();
    }

    /**
     * @return the number of required groups
     */
    public int size() {
        return groups.size();
    }

    /**
     * @return the required pieces, quotes removed, joined by a space, lower-cased (for
     * exact-name boosts)
     */
    public String plain() {
        List<String> parts = new ArrayList<>();
        for (List<Piece> g : groups) {
            if (g.size() == 1) {
                parts.add(g.get(0).text());
            }
        }
        return String.join(" ", parts).strip().toLowerCase(Locale.ROOT);
    }

    /**
     * @return lower-cased alphanumeric words of a text (any other character separates
     * words)
     */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        text.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp)) {
                cur.appendCodePoint(Character.toLowerCase(cp));
            }
            else if (!cur.isEmpty()) {
                out.add(cur.toString());
                cur.setLength(0);
            }
        });
        if (!cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out;
    }

    /**
     * @param text any string
     * @return its parse; never fails
     */
    public static QueryText parse(String raw) {
        // Any Unicode space (no-break, thin, ideographic ...) separates words like a
        // plain space.
        String text = raw.replaceAll("\\p{Z}", " ");
        List<List<Piece>> groups = new ArrayList<>();
        List<Piece> excluded = new ArrayList<>();
        boolean joinNext = false;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            boolean negated = false;
            if (c == '-' && i + 1 < n && !Character.isWhitespace(text.charAt(i + 1))) {
                negated = true;
                i++;
                c = text.charAt(i);
            }
            Piece piece;
            if (c == '"') {
                int end = text.indexOf('"', i + 1);
                String inner = end < 0 ? text.substring(i + 1) : text.substring(i + 1, end);
                i = end < 0 ? n : end + 1;
                piece = new Piece(inner.strip(), true);
            }
            else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '"') {
                    i++;
                }
                String word = text.substring(start, i);
                if (!negated && (word.equals("OR") || word.equals("|") || word.equals("||"))) {
                    joinNext = !groups.isEmpty();
                    continue;
                }
                if (!negated && word.indexOf('|') > 0 && word.lastIndexOf('|') < word.length() - 1) {
                    // a|b: alternatives written without spaces
                    List<Piece> alternatives = new ArrayList<>();
                    for (String part : word.split("\\|+")) {
                        if (HAS_ALNUM.matcher(part).find()) {
                            alternatives.add(new Piece(part, false));
                        }
                    }
                    if (!alternatives.isEmpty()) {
                        if (joinNext) {
                            groups.get(groups.size() - 1).addAll(alternatives);
                            joinNext = false;
                        }
                        else {
                            groups.add(alternatives);
                        }
                    }
                    continue;
                }
                piece = new Piece(word, false);
            }
            if (!HAS_ALNUM.matcher(piece.text()).find()) {
                continue;
            }
            if (negated) {
                excluded.add(piece);
                joinNext = false;
            }
            else if (joinNext) {
                groups.get(groups.size() - 1).add(piece);
                joinNext = false;
            }
            else {
                groups.add(new ArrayList<>(List.of(piece)));
            }
        }
        return new QueryText(groups.stream().map(List::copyOf).toList(), List.copyOf(excluded));
    }
}
