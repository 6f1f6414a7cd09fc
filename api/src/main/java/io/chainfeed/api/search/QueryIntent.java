package io.chainfeed.api.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a researcher's words are read beyond their text: which groups of a parsed query
 * ({@link QueryText}) carry its subject, which are question words and filler that need
 * not match, and which are constraint talk ("shortage", "sold out", "lead times", "glut",
 * "prices rising", "shipments down") that a constraint signal satisfies by what it
 * reports rather than by its wording. The idea is Algolia's optional words and
 * Elasticsearch's {@code minimum_should_match}: a query is not refused because a read
 * lacks "who" or "makes".
 *
 * <ul>
 * <li><b>Filler</b> ({@link #FILLER}, plus the Snowball English stop words): never
 * required. When every group is filler they are all the subject instead, so "supply"
 * still searches for "supply".</li>
 * <li><b>Constraint</b> ({@link #CONSTRAINTS}, one or two words): required, but a signal
 * read whose direction matches ({@code tightening} for shortage talk, {@code easing} for
 * glut talk, either for "capacity") and a term read (it explains the part named) satisfy
 * it without the words. When no other group is left they are the subject.</li>
 * <li><b>Excluded</b>: the word right after "other than", "except", "excluding",
 * "besides", "apart from" or "alternatives to" ({@link #EXCLUDING}): never required; a
 * read that is about it (its title, or its primary company) is left out, so "AI
 * accelerators other than Nvidia" keeps the reads that mention Nvidia only in
 * passing.</li>
 * <li><b>Subject</b>: everything else, and every quoted phrase, alternative group or
 * ticker-like piece.</li>
 * </ul>
 *
 * @param query the parsed query
 * @param segments the required groups of the query in order, each in exactly one segment:
 * a constraint phrase of two words is one segment, every other group one of its own
 */
public record QueryIntent(QueryText query, List<Segment> segments) {
    /** What a required group does in the query. */
    public enum Role {

        SUBJECT, FILLER, CONSTRAINT, EXCLUDED

    }

    /**
     * Consecutive required groups with one role.
     *
     * @param from first group index
     * @param to one past the last group index
     * @param role what the groups do
     * @param direction for a constraint, the signal direction that satisfies it; null
     * otherwise
     */
    public record Segment(int from, int to, Role role, Direction direction) {
    }

    /** Which way a constraint word points: the signal directions that satisfy it. */
    public enum Direction {

        TIGHTENING, EASING, EITHER

    }

    /**
     * Question words and filler that say how a researcher asks, not what about (beyond
     * the stop words): "who makes", "what does ... mean", "how does ... work".
     */
    static final Set<String> FILLER = Set.of("who", "what", "which", "how", "why", "when", "where", "whats", "make",
            "makes", "made", "maker", "makers", "build", "builds", "built", "supplies", "supplier", "suppliers", "mean",
            "means", "meaning", "definition", "define", "explain", "explained", "work", "works", "difference", "new",
            "news", "latest", "recent", "tell", "me", "please", "still", "use", "used", "does", "do", "is", "are", "a",
            "an", "the", "for", "of", "about", "between", "vs", "versus", "other", "than", "take", "takes", "get",
            "gets", "many", "much", "except", "excluding", "besides", "apart", "from", "alternative", "alternatives",
            "to");

    /**
     * Words after which the next word names what the researcher does not want, one word
     * or the last word of a two-word cue.
     */
    static final Set<String> EXCLUDING = Set.of("other than", "except", "excluding", "besides", "apart from",
            "alternatives to", "alternative to");

    /**
     * Constraint words and two-word phrases, with the signal direction each one talks
     * about.
     */
    static final Map<String, Direction> CONSTRAINTS = Map.ofEntries(Map.entry("shortage", Direction.TIGHTENING),
            Map.entry("shortages", Direction.TIGHTENING), Map.entry("short", Direction.TIGHTENING),
            Map.entry("shortfall", Direction.TIGHTENING), Map.entry("sold out", Direction.TIGHTENING),
            Map.entry("bottleneck", Direction.TIGHTENING), Map.entry("bottlenecks", Direction.TIGHTENING),
            Map.entry("lead time", Direction.TIGHTENING), Map.entry("lead times", Direction.TIGHTENING),
            Map.entry("tight", Direction.TIGHTENING), Map.entry("tightness", Direction.TIGHTENING),
            Map.entry("booked", Direction.TIGHTENING), Map.entry("fully booked", Direction.TIGHTENING),
            Map.entry("backlog", Direction.TIGHTENING), Map.entry("constrained", Direction.TIGHTENING),
            Map.entry("scarce", Direction.TIGHTENING), Map.entry("scarcity", Direction.TIGHTENING),
            Map.entry("crunch", Direction.TIGHTENING), Map.entry("allocated", Direction.TIGHTENING),
            Map.entry("rationed", Direction.TIGHTENING), Map.entry("limits", Direction.TIGHTENING),
            Map.entry("limited", Direction.TIGHTENING), Map.entry("rising", Direction.TIGHTENING),
            Map.entry("rise", Direction.TIGHTENING), Map.entry("hike", Direction.TIGHTENING),
            Map.entry("hikes", Direction.TIGHTENING), Map.entry("surge", Direction.TIGHTENING),
            Map.entry("soar", Direction.TIGHTENING), Map.entry("falling", Direction.EASING),
            Map.entry("fall", Direction.EASING), Map.entry("down", Direction.EASING),
            Map.entry("drop", Direction.EASING), Map.entry("decline", Direction.EASING),
            Map.entry("cut", Direction.EASING), Map.entry("cuts", Direction.EASING),
            Map.entry("glut", Direction.EASING), Map.entry("oversupply", Direction.EASING),
            Map.entry("surplus", Direction.EASING), Map.entry("slump", Direction.EASING),
            Map.entry("capacity", Direction.EITHER), Map.entry("supply", Direction.EITHER));

    /**
     * @param query a parsed query
     * @return its reading: every required group in one segment
     */
    public static QueryIntent of(QueryText query) {
        List<List<QueryText.Piece>> groups = query.groups();
        List<Segment> out = new ArrayList<>();
        boolean excluding = false;
        for (int i = 0; i < groups.size(); i++) {
            String one = word(groups.get(i));
            String next = i + 1 < groups.size() ? word(groups.get(i + 1)) : null;
            String before = i > 0 ? word(groups.get(i - 1)) : null;
            boolean cue = one != null
                    && (EXCLUDING.contains(one) || before != null && EXCLUDING.contains(before + " " + one));
            if (excluding && !cue && (one == null || !FILLER.contains(one) && !QueryWords.isStopWord(one))) {
                out.add(new Segment(i, i + 1, Role.EXCLUDED, null));
                excluding = false;
                continue;
            }
            excluding |= cue;
            if (one != null && next != null && CONSTRAINTS.containsKey(one + " " + next)) {
                out.add(new Segment(i, i + 2, Role.CONSTRAINT, CONSTRAINTS.get(one + " " + next)));
                i++;
            }
            else if (one != null && CONSTRAINTS.containsKey(one)) {
                out.add(new Segment(i, i + 1, Role.CONSTRAINT, CONSTRAINTS.get(one)));
            }
            else if (one != null && (FILLER.contains(one) || QueryWords.isStopWord(one))) {
                out.add(new Segment(i, i + 1, Role.FILLER, null));
            }
            else {
                out.add(new Segment(i, i + 1, Role.SUBJECT, null));
            }
        }
        if (out.stream().noneMatch(g -> g.role() == Role.SUBJECT)) {
            // Nothing but filler and constraint talk: the constraint words are the
            // subject, else every word.
            boolean constraint = out.stream().anyMatch(g -> g.role() == Role.CONSTRAINT);
            out.replaceAll(g -> !constraint || g.role() == Role.CONSTRAINT
                    ? new Segment(g.from(), g.to(), Role.SUBJECT, null) : g);
        }
        return new QueryIntent(query, List.copyOf(out));
    }

    /**
     * @return the single unquoted, not ticker-like word of a group, lower-cased, or null
     */
    private static String word(List<QueryText.Piece> group) {
        if (group.size() != 1 || group.get(0).phrase() || group.get(0).tickerLike()) {
            return null;
        }
        List<String> words = group.get(0).words();
        return words.size() == 1 ? words.get(0) : null;
    }

    /**
     * @return how many segments must match in mode {@code all}: every one but filler and
     * excluded words
     */
    public int counted() {
        return (int) segments.stream().filter(g -> g.role() != Role.FILLER && g.role() != Role.EXCLUDED).count();
    }

    /**
     * @param group index of a required group
     * @return the segment it is in
     */
    public Segment segmentAt(int group) {
        for (Segment g : segments) {
            if (group >= g.from() && group < g.to()) {
                return g;
            }
        }
        throw new IndexOutOfBoundsException(group);
    }

    /**
     * @param group index of a required group
     * @return its role
     */
    public Role role(int group) {
        return segmentAt(group).role();
    }

    /**
     * @return the text of every single-piece, unquoted group that is not filler, in
     * order, joined by a space: the words a proximity boost looks for together
     */
    public String meaningful() {
        List<String> parts = new ArrayList<>();
        for (int g = 0; g < query.groups().size(); g++) {
            List<QueryText.Piece> group = query.groups().get(g);
            if (role(g) != Role.FILLER && role(g) != Role.EXCLUDED && group.size() == 1 && !group.get(0).phrase()) {
                parts.add(group.get(0).text());
            }
        }
        return String.join(" ", parts).strip();
    }

    /**
     * @return the subject as typed (case kept), one piece: the single subject group's
     * piece as it stands (a quoted phrase stays a phrase), or the single-piece subject
     * groups joined by a space; empty when the query has no such group
     */
    public Optional<QueryText.Piece> subjectPiece() {
        List<QueryText.Piece> subject = new ArrayList<>();
        for (int g = 0; g < query.groups().size(); g++) {
            List<QueryText.Piece> group = query.groups().get(g);
            if (role(g) == Role.SUBJECT && group.size() == 1) {
                subject.add(group.get(0));
            }
        }
        if (subject.size() <= 1) {
            return subject.stream().findFirst();
        }
        return Optional
            .of(new QueryText.Piece(String.join(" ", subject.stream().map(QueryText.Piece::text).toList()), false));
    }

    /**
     * @return the subject groups' text (single-piece groups only, quotes removed), joined
     * by a space and lower-cased: what names the thing asked about, for exact-name lifts
     * ("what is CoWoS" gives "cowos")
     */
    public String subject() {
        List<String> parts = new ArrayList<>();
        for (int g = 0; g < query.groups().size(); g++) {
            List<QueryText.Piece> group = query.groups().get(g);
            if (role(g) == Role.SUBJECT && group.size() == 1) {
                parts.add(group.get(0).text());
            }
        }
        return String.join(" ", parts).strip().toLowerCase(Locale.ROOT);
    }
}
