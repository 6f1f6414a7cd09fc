package io.chainfeed.ingest.decide;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a stated horizon in a sentence and turns it into {@code until}: the first instant
 * after the period the text names (UTC), relative to when the signal was observed. The
 * forms, in the order they are tried (docs/decisions.md lists them with examples):
 * <ol>
 * <li>a quarter or half: "through the third quarter of 2027", "until Q3 2027", "into the
 * second half of 2027", "through H1 2027" (to the end of that quarter or half)</li>
 * <li>a month: "until March 2027", "through mid-2027" (mid = end of June), "until early
 * 2027" (end of March), "through late 2027" / "the end of 2027" (end of the year)</li>
 * <li>a year: "through 2028", "sold out for 2026", "into 2027", "until 2027" (end of that
 * year)</li>
 * <li>relative: "next year", "this year", "the rest of the year", "next quarter"</li>
 * <li>a duration: "for the next 18 months", "for two years", "lead times of 50 weeks",
 * "52-week lead times" (observed-at plus the duration)</li>
 * </ol>
 * "By 2027" is not a horizon (it says when something arrives, not how long the state
 * lasts).
 */
public final class Horizons {

    private static final String LEAD = "(?:through(?:out)?|thru|until|till|til|into|to|for|lasting into|"
            + "well into|right into|until at least|through at least|extend(?:ing|s|ed)? (?:in)?to|beyond)";

    private static final String NUM = "(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            + "eighteen|twenty-four|several|a few|a couple of)";

    private static final Map<String, Integer> WORDS = Map.ofEntries(Map.entry("one", 1), Map.entry("two", 2),
            Map.entry("three", 3), Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6),
            Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10),
            Map.entry("eleven", 11), Map.entry("twelve", 12), Map.entry("eighteen", 18), Map.entry("twenty-four", 24),
            Map.entry("several", 3), Map.entry("a few", 3), Map.entry("a couple of", 2));

    private static final String MONTHS = "(january|february|march|april|may|june|july|august|september|october|"
            + "november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)";

    private static final int FLAGS = Pattern.CASE_INSENSITIVE;

    private static final Pattern QUARTER = Pattern
        .compile("\\b" + LEAD + "\\s+(?:the\\s+)?(?:end\\s+of\\s+(?:the\\s+)?)?"
                + "(?:(first|second|third|fourth|1st|2nd|3rd|4th)\\s+(quarter|half)(?:\\s+of)?|(q[1-4]|h[12]))"
                + "\\s+(?:of\\s+)?((?:20)\\d\\d)\\b", FLAGS);

    private static final Pattern QUARTER_AFTER = Pattern
        .compile("\\b" + LEAD + "\\s+((?:20)\\d\\d)\\s*(q[1-4]|h[12])\\b", FLAGS);

    private static final Pattern MONTH = Pattern
        .compile("\\b" + LEAD + "\\s+(?:the\\s+)?(?:end\\s+of\\s+)?" + MONTHS + "\\.?\\s+((?:20)\\d\\d)\\b", FLAGS);

    private static final Pattern PART_YEAR = Pattern.compile("\\b" + LEAD + "\\s+(?:the\\s+)?"
            + "(mid|early|late|end|the\\s+end\\s+of|the\\s+middle\\s+of|the\\s+start\\s+of|the\\s+beginning\\s+of|"
            + "end\\s+of|middle\\s+of|start\\s+of|beginning\\s+of)[\\s-]+(?:of\\s+)?((?:20)\\d\\d)\\b", FLAGS);

    private static final Pattern YEAR = Pattern
        .compile("\\b" + LEAD + "\\s+(?:all\\s+(?:of\\s+)?)?((?:20)\\d\\d)\\b" + "(?!\\s*(?:q[1-4]|h[12]))", FLAGS);

    private static final Pattern RELATIVE = Pattern.compile("\\b(?:" + LEAD + "|in|all|of|across)\\s+(?:all\\s+of\\s+)?"
            + "(?:the\\s+)?(next\\s+year|this\\s+year|rest\\s+of\\s+(?:the|this)\\s+year|remainder\\s+of\\s+"
            + "(?:the|this)\\s+year|next\\s+quarter|this\\s+quarter|rest\\s+of\\s+the\\s+quarter|"
            + "coming\\s+year|year\\s+ahead)\\b", FLAGS);

    private static final Pattern DURATION = Pattern.compile("\\b(?:for|over|during|through)\\s+"
            + "(?:at\\s+least\\s+|up\\s+to\\s+|another\\s+|the\\s+(?:next|coming)\\s+)?" + NUM
            + "\\s+(weeks?|months?|quarters?|years?)\\b", FLAGS);

    private static final Pattern LEAD_TIME = Pattern.compile(
            "\\b(?:lead[\\s-]+times?|waits?|wait(?:ing)?[\\s-]+times?|delivery[\\s-]+times?)\\s+(?:of|at|to|near|around|"
                    + "reaching|now|stretch(?:ed|ing)?\\s+to|(?:have\\s+|has\\s+)?(?:grown|risen|lengthened|extended|"
                    + "doubled)\\s+to|(?:are|is)\\s+(?:now\\s+)?(?:at\\s+)?)\\s*(?:about\\s+|around\\s+|roughly\\s+|"
                    + "up\\s+to\\s+|over\\s+|more\\s+than\\s+|nearly\\s+|almost\\s+)?" + NUM
                    + "\\s+(weeks?|months?|years?)\\b",
            FLAGS);

    private static final Pattern WEEK_LEAD = Pattern.compile("\\b(\\d{1,3})[\\s-]+(week|month)s?\\s+lead[\\s-]+times?",
            FLAGS);

    private Horizons() {
    }

    /**
     * A horizon found in text.
     *
     * @param until the first instant after the period named
     * @param start offset of the phrase in the text given
     * @param end offset one past it
     * @param rule which form matched ({@code quarter}, {@code month}, {@code part-year},
     * {@code year}, {@code relative}, {@code duration}, {@code lead-time})
     */
    public record Horizon(Instant until, int start, int end, String rule) {
    }

    /**
     * @param text a sentence or field
     * @param from offset to search from
     * @param to offset to search to
     * @param observedAt when the signal was observed (relative forms count from it)
     * @return the first horizon in {@code text[from, to)} by the first form that matches,
     * or null
     */
    public static Horizon find(String text, int from, int to, Instant observedAt) {
        LocalDate seen = observedAt.atZone(ZoneOffset.UTC).toLocalDate();
        Matcher m = QUARTER.matcher(text).region(from, to);
        if (m.find()) {
            int year = Integer.parseInt(m.group(4));
            String ord = m.group(1) != null ? m.group(1).toLowerCase(Locale.ROOT) : null;
            String unit = m.group(2) != null ? m.group(2).toLowerCase(Locale.ROOT) : null;
            String code = m.group(3) != null ? m.group(3).toLowerCase(Locale.ROOT) : null;
            return of(periodEnd(year, ord, unit, code), m, "quarter");
        }
        m = QUARTER_AFTER.matcher(text).region(from, to);
        if (m.find()) {
            return of(periodEnd(Integer.parseInt(m.group(1)), null, null, m.group(2).toLowerCase(Locale.ROOT)), m,
                    "quarter");
        }
        m = MONTH.matcher(text).region(from, to);
        if (m.find()) {
            int month = month(m.group(1));
            return of(LocalDate.of(Integer.parseInt(m.group(2)), month, 1).plusMonths(1), m, "month");
        }
        m = PART_YEAR.matcher(text).region(from, to);
        if (m.find()) {
            int year = Integer.parseInt(m.group(2));
            String part = m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            LocalDate end = part.contains("mid") || part.contains("middle") ? LocalDate.of(year, 7, 1)
                    : part.contains("early") || part.contains("start") || part.contains("beginning")
                            ? LocalDate.of(year, 4, 1) : LocalDate.of(year + 1, 1, 1);
            return of(end, m, "part-year");
        }
        m = YEAR.matcher(text).region(from, to);
        if (m.find()) {
            return of(LocalDate.of(Integer.parseInt(m.group(1)) + 1, 1, 1), m, "year");
        }
        m = RELATIVE.matcher(text).region(from, to);
        if (m.find()) {
            String what = m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            LocalDate end;
            if (what.equals("next year")) {
                end = LocalDate.of(seen.getYear() + 2, 1, 1);
            }
            else if (what.equals("coming year") || what.equals("year ahead")) {
                end = seen.plusYears(1);
            }
            else if (what.contains("quarter")) {
                LocalDate q = LocalDate.of(seen.getYear(), (seen.getMonthValue() - 1) / 3 * 3 + 1, 1).plusMonths(3);
                end = what.startsWith("next") ? q.plusMonths(3) : q;
            }
            else {
                end = LocalDate.of(seen.getYear() + 1, 1, 1);
            }
            return of(end, m, "relative");
        }
        m = LEAD_TIME.matcher(text).region(from, to);
        if (m.find()) {
            int count = count(m.group(1));
            if (count > 0) {
                return of(plus(seen, count, m.group(2)), m, "lead-time");
            }
        }
        m = WEEK_LEAD.matcher(text).region(from, to);
        if (m.find()) {
            return of(plus(seen, Integer.parseInt(m.group(1)), m.group(2)), m, "lead-time");
        }
        m = DURATION.matcher(text).region(from, to);
        if (m.find()) {
            int count = count(m.group(1));
            if (count > 0) {
                return of(plus(seen, count, m.group(2)), m, "duration");
            }
        }
        return null;
    }

    private static int count(String number) {
        String n = number.toLowerCase(Locale.ROOT);
        return n.chars().allMatch(Character::isDigit) ? Integer.parseInt(n) : WORDS.getOrDefault(n, 0);
    }

    private static LocalDate plus(LocalDate seen, int count, String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        return u.startsWith("week") ? seen.plus(count, ChronoUnit.WEEKS)
                : u.startsWith("month") ? seen.plusMonths(count)
                        : u.startsWith("quarter") ? seen.plusMonths(3L * count) : seen.plusYears(count);
    }

    private static LocalDate periodEnd(int year, String ord, String unit, String code) {
        int n;
        boolean half;
        if (code != null) {
            half = code.startsWith("h");
            n = code.charAt(1) - '0';
        }
        else {
            half = unit.equals("half");
            n = switch (ord) {
                case "first", "1st" -> 1;
                case "second", "2nd" -> 2;
                case "third", "3rd" -> 3;
                default -> 4;
            };
        }
        int endMonth = half ? 6 * n : 3 * n;
        return LocalDate.of(year, 1, 1).plusMonths(endMonth);
    }

    private static int month(String name) {
        String n = name.toLowerCase(Locale.ROOT).substring(0, 3);
        return switch (n) {
            case "jan" -> 1;
            case "feb" -> 2;
            case "mar" -> 3;
            case "apr" -> 4;
            case "may" -> 5;
            case "jun" -> 6;
            case "jul" -> 7;
            case "aug" -> 8;
            case "sep" -> 9;
            case "oct" -> 10;
            case "nov" -> 11;
            default -> 12;
        };
    }

    private static Horizon of(LocalDate end, Matcher m, String rule) {
        return new Horizon(end.atStartOfDay(ZoneOffset.UTC).toInstant(), m.start(), m.end(), rule);
    }

}
