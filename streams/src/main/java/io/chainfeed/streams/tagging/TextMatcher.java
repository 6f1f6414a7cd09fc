package io.chainfeed.streams.tagging;

import static io.chainfeed.streams.tagging.TaggerWords.CORROBORATED_TERM_ALIASES;
import static io.chainfeed.streams.tagging.TaggerWords.EXCHANGES;
import static io.chainfeed.streams.tagging.TaggerWords.STOP_SYMBOLS;
import static io.chainfeed.streams.tagging.TextBoundaries.afterSuffix;
import static io.chainfeed.streams.tagging.TextBoundaries.boundaryBefore;
import static io.chainfeed.streams.tagging.TextBoundaries.bracket;
import static io.chainfeed.streams.tagging.TextBoundaries.clauseCue;
import static io.chainfeed.streams.tagging.TextBoundaries.initialsMatch;
import static io.chainfeed.streams.tagging.TextBoundaries.isJoiner;
import static io.chainfeed.streams.tagging.TextBoundaries.sentenceStart;
import static io.chainfeed.streams.tagging.TextBoundaries.spellsInitials;

import io.chainfeed.streams.tagging.TagDictionary.Entry;
import io.chainfeed.streams.tagging.TagDictionary.Kind;
import io.chainfeed.streams.tagging.TagDictionary.Raw;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the companies, terms and layers one field of a read names: scans the text with
 * the {@link TagDictionary} and keeps the hits that pass the rules of the {@link Tagger}
 * (word boundaries, suffixes, case, ticker context, ambiguity), the longest of
 * overlapping hits of one kind. Immutable and thread-safe.
 */
final class TextMatcher {

    private static final Set<String> US_MICS = Set.of("XNAS", "XNYS");

    private static final String SYM = "[A-Z0-9][A-Za-z0-9.\\-]{0,11}";

    private static final String EXCH = "[A-Za-z]{2,10}\\s*[:：]\\s*";

    /** The inside of a bracket that holds only symbols, optionally exchange-prefixed. */
    private static final Pattern TICKER_LIST = Pattern
        .compile("\\s*(?:" + EXCH + ")?" + SYM + "(?:\\s*[,;/]\\s*(?:" + EXCH + ")?" + SYM + ")*\\s*");

    private static final Pattern EXCHANGE_BEFORE = Pattern.compile("([A-Za-z]{2,10})\\s*[:：]\\s*$");

    /**
     * A hit the rules accepted.
     *
     * @param start first char of the evidence (a cashtag's {@code $}, an exchange prefix
     * included)
     * @param end end of the evidence, exclusive
     * @param rule the rule it is evidence of
     * @param confidence its confidence
     * @param deferred counts only if the same entity is found by another rule in the read
     * (an ordinary word at a sentence start, a generic term alias)
     */
    record Accepted(Entry entry, int start, int end, TagRule rule, double confidence, boolean deferred) {
    }

    private final TagDictionary dictionary;

    TextMatcher(TagDictionary dictionary) {
        this.dictionary = dictionary;
    }

    /**
     * @param text the text of one field
     * @param self the slug of the term being tagged, which never tags itself
     * @return the accepted hits, per kind the longest of overlapping ones, in text order
     * within a kind
     */
    List<Accepted> match(String text, String self) {
        Map<Kind, List<Accepted>> accepted = new EnumMap<>(Kind.class);
        dictionary.scan(text, raw -> {
            for (Entry entry : raw.entries()) {
                if (entry.kind() == Kind.TERM && entry.id().equals(self)) {
                    continue;
                }
                Accepted a = entry.ticker() ? acceptTicker(text, raw, entry) : acceptName(text, raw, entry);
                if (a != null) {
                    accepted.computeIfAbsent(entry.kind(), k -> new ArrayList<>()).add(a);
                }
            }
        });
        List<Accepted> out = new ArrayList<>();
        accepted.values().forEach(hits -> out.addAll(longestWins(hits)));
        return out;
    }

    /**
     * Of overlapping hits of one kind keeps the longest (then the earliest); disjoint
     * hits all stay.
     */
    private static List<Accepted> longestWins(List<Accepted> hits) {
        if (hits.size() < 2) {
            return hits;
        }
        List<Accepted> sorted = new ArrayList<>(hits);
        sorted.sort(Comparator.comparingInt((Accepted a) -> -(a.end() - a.start())).thenComparingInt(Accepted::start));
        List<Accepted> kept = new ArrayList<>();
        for (Accepted a : sorted) {
            boolean overlaps = false;
            for (Accepted k : kept) {
                if (a.start() < k.end() && k.start() < a.end() && !(a.start() == k.start() && a.end() == k.end())) {
                    overlaps = true;
                    break;
                }
            }
            if (!overlaps) {
                kept.add(a);
            }
        }
        kept.sort(Comparator.comparingInt(Accepted::start));
        return kept;
    }

    private Accepted acceptName(String text, Raw raw, Entry entry) {
        int s = raw.start();
        int e = raw.end();
        String written = text.substring(s, e);
        if (!boundaryBefore(text, s) || s > 0 && text.charAt(s - 1) == '$') {
            return null; // $SMR is a ticker, not the term
        }
        int after = afterSuffix(text, e, entry.plural(), entry.canonical());
        if (after < 0) {
            return null;
        }
        if (entry.ordinary() && after < text.length() && text.charAt(after) == '-') {
            return null; // "Micron-scale", "Extreme-ultraviolet"
        }
        boolean spelled = switch (entry.caseRule()) {
            case EXACT -> written.equals(entry.canonical());
            case INITIALS -> initialsMatch(written, entry.canonical());
            case ANY -> true;
        };
        if (!spelled) {
            return null;
        }
        if (entry.kind() == Kind.COMPANY && dictionary.sharedCompanyName(entry.canonical())) {
            return null; // a name two companies share names neither
        }
        boolean deferred = false;
        double confidence = entry.confidence();
        if (entry.ordinary() && !entry.canonical().contains(" ") && sentenceStart(text, s)) {
            confidence = TagRule.SENTENCE_START_NAME;
            deferred = !clauseCue(text, e, after);
        }
        if (entry.rule() == TagRule.TERM_ALIAS
                && CORROBORATED_TERM_ALIASES.contains(TagDictionary.fold(entry.canonical()))) {
            deferred = true;
        }
        return new Accepted(entry, s, e, entry.rule(), confidence, deferred);
    }

    private Accepted acceptTicker(String text, Raw raw, Entry entry) {
        int s = raw.start();
        int e = raw.end();
        String written = text.substring(s, e);
        if (!written.equals(entry.canonical())) {
            return null; // tickers are case-sensitive
        }
        if (!boundaryBefore(text, s) && !(s > 0 && text.charAt(s - 1) == '$')) {
            return null;
        }
        if (afterSuffix(text, e, false, entry.canonical()) < 0) {
            return null;
        }
        boolean numeric = entry.canonical().chars().allMatch(Character::isDigit);

        // $ANET
        if (s > 0 && text.charAt(s - 1) == '$' && (s < 2 || !isJoiner(text.charAt(s - 2)))) {
            return numeric || !dictionary.resolves(entry, null, written) ? null
                    : ticker(entry, s - 1, e, TagRule.TICKER_CASHTAG);
        }
        // NASDAQ: ON, (NYSE: ANET), (TWSE: 2330)
        Matcher m = EXCHANGE_BEFORE.matcher(text.substring(Math.max(0, s - 16), s));
        if (m.find()) {
            String mic = EXCHANGES.get(m.group(1).toUpperCase(Locale.ROOT));
            if (mic != null) {
                return dictionary.resolves(entry, mic, written)
                        ? ticker(entry, s - (m.end() - m.start()), e, TagRule.TICKER_EXCHANGE) : null;
            }
        }
        // 2345.TW, AI.PA
        if (entry.rule() == TagRule.TICKER_SUFFIXED) {
            return dictionary.resolves(entry, null, written) ? ticker(entry, s, e, TagRule.TICKER_SUFFIXED) : null;
        }
        // (ANET), (AMD, NVDA)
        int[] group = bracket(text, s, e);
        if (group != null && TICKER_LIST.matcher(text.substring(group[0] + 1, group[1])).matches()) {
            if (numeric || written.length() < 2 || !dictionary.resolves(entry, null, written)) {
                // a bare number or letter in brackets is a year, a count or an
                // enumeration
                return null;
            }
            if (STOP_SYMBOLS.contains(written) && spellsInitials(text, group[0], written)) {
                return null; // "artificial intelligence (AI)" defines an abbreviation
            }
            return ticker(entry, s, e, TagRule.TICKER_PARENTHESISED);
        }
        // ANET in prose
        if (numeric || written.length() < 3 || !written.chars().allMatch(c -> c >= 'A' && c <= 'Z')
                || STOP_SYMBOLS.contains(written) || !US_MICS.contains(entry.listing().getMic())
                || dictionary.namesSomethingElse(written, entry.id()) || !dictionary.resolves(entry, null, written)) {
            return null;
        }
        return ticker(entry, s, e, TagRule.TICKER_IN_PROSE);
    }

    private static Accepted ticker(Entry entry, int start, int end, TagRule rule) {
        return new Accepted(entry, start, end, rule, rule.confidence(), false);
    }

}
