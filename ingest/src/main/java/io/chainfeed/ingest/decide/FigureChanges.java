package io.chainfeed.ingest.decide;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Before-and-after figures in news text, and which way they moved: "lead time 10 weeks,
 * down from 24", "wait 70 wks, was 120", "from $8 to $11", "HBM4 +15%". Supply news often
 * states its direction only in its numbers, which word features do not compare (issue 38:
 * "a falling price decided tightening", "figures-only headlines"). The reader gets which
 * way each sentence's figures moved and, crossed with that, the sentence's words, so that
 * a linear model can learn that a falling wait eases supply and a falling utilisation
 * does not (docs/decisions.md, amendment 3).
 *
 * <p>
 * Forms read, case-insensitively, within one sentence: {@code from A to B},
 * {@code A -> B} (or an arrow), {@code B, was A} / {@code B vs A} / {@code B versus A} /
 * {@code B against
 * A} / {@code B compared with A} / {@code B, down from A} / {@code B, up from A}, and a
 * signed percentage ({@code +15%}, {@code -20 %}). A value is a number with thousands
 * separators or decimals, an optional currency sign before it and an optional unit word
 * after it; units are not compared. Equal values are no change. Thread-safe.
 */
final class FigureChanges {

    /** Which way a sentence's figures moved. */
    enum Change {

        /** The later value is the larger. */
        RISE,
        /** The later value is the smaller. */
        FALL

    }

    private static final String NUM = "(zero|\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)";

    private static final String UNIT = "(?:\\s?-?(?:%|(?:per ?cent|wks?|weeks?|months?|mths?|days?|hours?|hrs?|years?"
            + "|yrs?|bn|billion|mn|million|m|k|x|nm|gb|tb|mw|gw|kw|units?|wafers?)\\b))?(?:/\\w+)?";

    private static final String VALUE = "[$\u20ac\u00a3\u00a5]?\\s?" + NUM + UNIT;

    /** Words that hedge a figure without changing it: "from about 300 to 40". */
    private static final String ABOUT = "(?:(?:about|around|roughly|some|nearly|almost|over|under)\\s+)?";

    /**
     * A point in time after a figure: "in March", "at end-2025", "in the spring", "a year
     * ago".
     */
    private static final String WHEN = "(?:(?:in|at|by|as of|during|for)\\s+[\\w-]+(?:\\s[\\w-]+)?"
            + "|(?:a|one|two|three|six|\\d+)\\s+(?:years?|months?|weeks?|quarters?)\\s+(?:ago|earlier))";

    private static final Pattern FROM_TO = Pattern
        .compile("\\bfrom\\s+" + ABOUT + VALUE + "\\s+(?:to|\u2192|->)\\s+" + ABOUT + VALUE, Pattern.CASE_INSENSITIVE);

    private static final Pattern ARROW = Pattern.compile(VALUE + "\\s*(?:\u2192|->)\\s*" + VALUE,
            Pattern.CASE_INSENSITIVE);

    private static final Pattern AGAINST = Pattern.compile(
            VALUE + "\\s*[,;(]?\\s*(?:was|vs\\.?|versus|against"
                    + "|compared (?:with|to)|down from|up from|instead of|from a year ago at)\\s+" + ABOUT + VALUE,
            Pattern.CASE_INSENSITIVE);

    /**
     * "$410 in April, $352 in June", "0.8% a year ago, 3.6% now", "16-week lead time in
     * January, 38 weeks in June" (up to two words between a figure and its time): earlier
     * first.
     */
    private static final Pattern TIMED = Pattern
        .compile(VALUE + "(?:\\s+[a-z-]+){0,2}?\\s+" + WHEN + "\\s*[,;]\\s*(?:and\\s+|but\\s+)?" + VALUE
                + "(?:\\s+[a-z-]+){0,2}?\\s+(?:now|today|currently|" + WHEN + ")", Pattern.CASE_INSENSITIVE);

    private static final Pattern SIGNED_PERCENT = Pattern.compile("(?<![\\w.,])([+\\-\u2212])\\s?" + NUM + "\\s?%");

    private FigureChanges() {
    }

    /**
     * @param sentence one sentence (or a headline)
     * @return the changes its figures state, in order of the forms above (a sentence may
     * state several)
     */
    static List<Change> in(String sentence) {
        List<Change> out = new ArrayList<>();
        if (sentence == null || sentence.isEmpty()) {
            return out;
        }
        pairs(FROM_TO, sentence, 1, 2, out);
        pairs(ARROW, sentence, 1, 2, out);
        pairs(AGAINST, sentence, 2, 1, out);
        pairs(TIMED, sentence, 1, 2, out);
        Matcher m = SIGNED_PERCENT.matcher(sentence);
        while (m.find()) {
            if (number(m.group(2)) != 0) {
                out.add(m.group(1).equals("+") ? Change.RISE : Change.FALL);
            }
        }
        return out;
    }

    /**
     * Adds the figure features of a headline and body: {@code f.rise} and {@code f.fall}
     * when any sentence's figures moved that way, and {@code f.rise_<stem>} /
     * {@code f.fall_<stem>} for each word (Porter stem, {@link TextAnalysis}) of such a
     * sentence that is not a number. Binary.
     * @param headline the headline, may be empty
     * @param body the body's sentences ({@link ReaderFeatures#sentences}), as the reader
     * has already split them
     * @param names feature names, appended to
     * @param values their values, appended to
     */
    static void features(String headline, List<ReaderFeatures.Sentence> body, List<String> names, List<Double> values) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> sentences = new ArrayList<>();
        if (headline != null && !headline.isBlank()) {
            sentences.add(headline);
        }
        body.forEach(s -> sentences.add(s.text()));
        for (String s : sentences) {
            List<Change> changes = in(s);
            if (changes.isEmpty()) {
                continue;
            }
            List<TextAnalysis.Token> tokens = TextAnalysis.tokens(s);
            for (Change c : changes) {
                String prefix = "f." + c.name().toLowerCase(Locale.ROOT);
                seen.add(prefix);
                for (TextAnalysis.Token t : tokens) {
                    if (!t.stem().chars().allMatch(ch -> Character.isDigit(ch) || ch == '.' || ch == ',')) {
                        seen.add(prefix + "_" + t.stem());
                    }
                }
            }
        }
        for (String name : seen) {
            names.add(name);
            values.add(1.0);
        }
    }

    /**
     * Adds the change of each match of a two-figure form, its earlier figure in group
     * {@code before}.
     */
    private static void pairs(Pattern form, String sentence, int before, int after, List<Change> out) {
        Matcher m = form.matcher(sentence);
        while (m.find()) {
            add(out, number(m.group(before)), number(m.group(after)));
        }
    }

    private static void add(List<Change> out, double before, double after) {
        if (after > before) {
            out.add(Change.RISE);
        }
        else if (after < before) {
            out.add(Change.FALL);
        }
    }

    private static double number(String text) {
        return text.equalsIgnoreCase("zero") ? 0 : Double.parseDouble(text.replace(",", ""));
    }

}
