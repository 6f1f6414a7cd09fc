package io.chainfeed.streams.tagging;

import static io.chainfeed.streams.tagging.TaggerWords.CLAUSE_CUES;
import static io.chainfeed.streams.tagging.TaggerWords.STOP_SYMBOLS;

import java.util.Locale;

/**
 * Where a {@link Tagger} hit may start and end in running text: word boundaries (a script
 * change next to Han, kana or Hangul counts as one), possessive and plural suffixes,
 * brackets around tickers, abbreviations spelled by the words before a bracket, capital
 * initials and sentence starts. Pure functions over a string and offsets (end exclusive).
 */
final class TextBoundaries {

    private TextBoundaries() {
    }

    /**
     * The enclosing bracket of a span, as {open, close} indexes, if close by on both
     * sides.
     */
    static int[] bracket(String text, int s, int e) {
        int open = -1;
        for (int i = s - 1; i >= 0 && i >= s - 40; i--) {
            char c = text.charAt(i);
            if (c == '(') {
                open = i;
                break;
            }
            if (c == ')') {
                return null;
            }
        }
        if (open < 0) {
            return null;
        }
        for (int i = e; i < text.length() && i <= e + 40; i++) {
            char c = text.charAt(i);
            if (c == ')') {
                return new int[] { open, i };
            }
            if (c == '(') {
                return null;
            }
        }
        return null;
    }

    /**
     * Whether the symbol abbreviates the words right before the bracket: two or more of
     * the last words, each giving one or more leading letters, in order
     * ({@code artificial intelligence (AI)}, {@code application programs (APP)}). One
     * word never counts ({@code Allstate (ALL)} is a ticker).
     */
    static boolean spellsInitials(String text, int open, String symbol) {
        String before = text.substring(Math.max(0, open - 80), open).strip();
        String[] words = before.split("[\\s\\-]+");
        String sym = symbol.toLowerCase(Locale.ROOT);
        for (int k = 2; k <= Math.min(sym.length(), words.length); k++) {
            String[] last = new String[k];
            for (int i = 0; i < k; i++) {
                last[i] = words[words.length - k + i].toLowerCase(Locale.ROOT);
            }
            if (abbreviates(sym, 0, last, 0)) {
                return true;
            }
        }
        return false;
    }

    static boolean abbreviates(String sym, int si, String[] words, int wi) {
        if (wi == words.length) {
            return si == sym.length();
        }
        String w = words[wi];
        for (int take = 1; take <= w.length() && si + take <= sym.length(); take++) {
            if (w.charAt(take - 1) != sym.charAt(si + take - 1)) {
                break;
            }
            if (abbreviates(sym, si + take, words, wi + 1)) {
                return true;
            }
        }
        return false;
    }

    static boolean isJoiner(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /**
     * No letter or digit right before {@code s} (a script change counts as a boundary).
     */
    static boolean boundaryBefore(String text, int s) {
        if (s == 0) {
            return true;
        }
        char c = text.charAt(s - 1);
        char first = text.charAt(s);
        if (Character.isLetterOrDigit(c) || c == '_') {
            return scriptChange(c, first);
        }
        if ((c == '.' || c == '&') && s >= 2 && Character.isLetterOrDigit(text.charAt(s - 2))) {
            return false; // www.nvidia, AT&T
        }
        return c != '@' && c != '#';
    }

    /**
     * The index after an accepted suffix ({@code 's}, {@code ’s}, {@code '}, and when
     * allowed {@code s}/{@code es}) if a boundary follows, else -1.
     */
    static int afterSuffix(String text, int e, boolean plural, String canonical) {
        if (boundaryAfter(text, e)) {
            return e;
        }
        int n = text.length();
        char c = text.charAt(e);
        if ((c == '\'' || c == '’') && e + 1 < n && text.charAt(e + 1) == 's' && boundaryAfter(text, e + 2)) {
            return e + 2;
        }
        if (plural && c == 's' && boundaryAfter(text, e + 1)) {
            return e + 1;
        }
        if (plural && c == 'e' && e + 1 < n && text.charAt(e + 1) == 's' && boundaryAfter(text, e + 2)) {
            return e + 2;
        }
        return -1;
    }

    static boolean boundaryAfter(String text, int e) {
        if (e >= text.length()) {
            return true;
        }
        char c = text.charAt(e);
        char last = text.charAt(e - 1);
        if (Character.isLetterOrDigit(c) || c == '_') {
            return scriptChange(last, c);
        }
        if ((c == '.' || c == '&') && e + 1 < text.length() && Character.isLetterOrDigit(text.charAt(e + 1))) {
            return false; // nvidia.com, AT&T
        }
        if ((c == '\'' || c == '’') && e + 1 < text.length() && Character.isLetter(text.charAt(e + 1))) {
            // an apostrophe inside a word, other than a possessive (checked by the
            // caller)
            return false;
        }
        return true;
    }

    /**
     * Two letters in different scripts, one of them Han, kana or Hangul, do not form one
     * word.
     */
    static boolean scriptChange(char a, char b) {
        Character.UnicodeScript sa = Character.UnicodeScript.of(a);
        Character.UnicodeScript sb = Character.UnicodeScript.of(b);
        if (sa == sb) {
            // No spaces between Han words; Korean particles attach to the name (삼성전자는).
            return sa == Character.UnicodeScript.HAN || sa == Character.UnicodeScript.HANGUL || isKana(sa);
        }
        return isCjk(sa) || isCjk(sb);
    }

    static boolean isKana(Character.UnicodeScript s) {
        return s == Character.UnicodeScript.HIRAGANA || s == Character.UnicodeScript.KATAKANA;
    }

    static boolean isCjk(Character.UnicodeScript s) {
        return s == Character.UnicodeScript.HAN || isKana(s) || s == Character.UnicodeScript.HANGUL;
    }

    /**
     * Each word written with the capital initial the name has
     * ({@code Applied Materials}), or in capitals.
     */
    static boolean initialsMatch(String written, String canonical) {
        if (written.equals(canonical)) {
            return true;
        }
        if (written.chars().noneMatch(Character::isLowerCase)) {
            return !STOP_SYMBOLS.contains(written); // ARM is a ticker word, not Arm
        }
        String[] w = written.split(" ");
        String[] c = canonical.split(" ");
        if (w.length != c.length) {
            return false;
        }
        for (int i = 0; i < w.length; i++) {
            if (w[i].isEmpty() || c[i].isEmpty()) {
                return false;
            }
            if (Character.isUpperCase(c[i].charAt(0)) && !Character.isUpperCase(w[i].charAt(0))) {
                return false;
            }
        }
        return true;
    }

    static boolean sentenceStart(String text, int s) {
        int i = s - 1;
        while (i >= 0 && (Character.isWhitespace(text.charAt(i)) || "\"'“‘([*•-–—".indexOf(text.charAt(i)) >= 0)) {
            if (text.charAt(i) == '\n') {
                return true;
            }
            i--;
        }
        return i < 0 || ".!?:;".indexOf(text.charAt(i)) >= 0;
    }

    /**
     * What follows a sentence-initial ordinary-word name reads like a clause about a
     * company.
     */
    static boolean clauseCue(String text, int e, int after) {
        if (after > e) {
            return true; // possessive
        }
        int i = after;
        while (i < text.length() && text.charAt(i) == ' ') {
            i++;
        }
        if (i >= text.length()) {
            return true;
        }
        char c = text.charAt(i);
        if (!Character.isLetter(c)) {
            return c != '-';
        }
        if (Character.isUpperCase(c)) {
            return true;
        }
        int j = i;
        while (j < text.length() && Character.isLetter(text.charAt(j))) {
            j++;
        }
        String word = text.substring(i, j).toLowerCase(Locale.ROOT);
        return CLAUSE_CUES.contains(word) || word.endsWith("ed");
    }

}
