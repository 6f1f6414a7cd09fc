package io.chainfeed.streams.tagging;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What changed between two versions of a read: the term history that feeds show for an
 * edited term.
 *
 * <p>
 * The comparison is by stable keys, never by position, so reordering alone is not a
 * change:
 * <ul>
 * <li>{@code title}, {@code summary}, {@code disclaimer}: {@code changed} (detail: the
 * new text);</li>
 * <li>{@code aliases}: each alias {@code added} or {@code removed};</li>
 * <li>{@code sections}, by key: {@code added}, {@code removed}, or {@code changed} when
 * the heading or the body differs (detail: the heading, the new one if it changed);</li>
 * <li>{@code layers} (by id) and {@code companies} (by company id): {@code added} or
 * {@code removed};</li>
 * <li>{@code related} (terms the source lists, evidence rule {@code declared-related})
 * and {@code terms} (the other glossary terms the text mentions), by slug: {@code added}
 * or {@code removed};</li>
 * <li>{@code sources}, by URL: {@code added} or {@code removed}.</li>
 * </ul>
 * Tag confidence, evidence offsets and the primary flag are not reported: they move with
 * any edit of the text and say nothing a reader would call a change.
 */
public final class ReadChanges {

    public static final String ADDED = "added";

    public static final String REMOVED = "removed";

    public static final String CHANGED = "changed";

    private ReadChanges() {
    }

    /**
     * Compares two versions of one read.
     * @param previous the version before, or null when there is none (then nothing
     * changed)
     * @param current the new version, not null
     * @return the changes in a stable order: title, aliases, summary, sections, layers,
     * companies, related, terms, sources, disclaimer; within a field removals and changes
     * in the previous order, then additions in the new order; empty when nothing a reader
     * sees changed
     */
    public static List<ReadChange> between(Read previous, Read current) {
        Objects.requireNonNull(current, "current");
        List<ReadChange> out = new ArrayList<>();
        if (previous == null) {
            return out;
        }
        if (!previous.getTitle().equals(current.getTitle())) {
            out.add(change("title", CHANGED, "", current.getTitle()));
        }
        keyed(out, "aliases", previous.getAliases(), current.getAliases(), a -> a, a -> a, null);
        if (!previous.getSummary().equals(current.getSummary())) {
            out.add(change("summary", CHANGED, "", current.getSummary()));
        }
        keyed(out, "sections", previous.getSections(), current.getSections(), Section::getKey, Section::getHeading,
                (a, b) -> a.getHeading().equals(b.getHeading()) && a.getBody().equals(b.getBody()));
        keyed(out, "layers", previous.getLayers(), current.getLayers(), LayerTag::getId, LayerTag::getName, null);
        keyed(out, "companies", previous.getCompanies(), current.getCompanies(), CompanyTag::getId,
                c -> c.getName() + " (" + c.getSymbol() + ")", null);
        keyed(out, "related", related(previous, true), related(current, true), TermTag::getSlug, TermTag::getTitle,
                null);
        keyed(out, "terms", related(previous, false), related(current, false), TermTag::getSlug, TermTag::getTitle,
                null);
        keyed(out, "sources", previous.getSources(), current.getSources(), Source::getUrl, Source::getName, null);
        if (!previous.getDisclaimer().equals(current.getDisclaimer())) {
            out.add(change("disclaimer", CHANGED, "", current.getDisclaimer()));
        }
        return out;
    }

    /**
     * The term tags the source declares as related ({@code declared}) or the other,
     * mentioned terms.
     */
    static List<TermTag> related(Read read, boolean declared) {
        return read.getTerms()
            .stream()
            .filter(t -> t.getEvidence().stream().anyMatch(e -> "declared-related".equals(e.getRule())) == declared)
            .toList();
    }

    private interface Same<T> {

        boolean test(T a, T b);

    }

    private static <T> void keyed(List<ReadChange> out, String field, List<T> before, List<T> after,
            Function<T, String> key, Function<T, String> label, Same<T> same) {
        Map<String, T> old = index(before, key);
        Map<String, T> now = index(after, key);
        old.forEach((k, v) -> {
            T n = now.get(k);
            if (n == null) {
                out.add(change(field, REMOVED, k, label.apply(v)));
            }
            else if (same != null && !same.test(v, n)) {
                out.add(change(field, CHANGED, k, label.apply(n)));
            }
        });
        now.forEach((k, v) -> {
            if (!old.containsKey(k)) {
                out.add(change(field, ADDED, k, label.apply(v)));
            }
        });
    }

    private static <T> Map<String, T> index(List<T> items, Function<T, String> key) {
        Map<String, T> m = new LinkedHashMap<>();
        for (T t : items) {
            m.putIfAbsent(key.apply(t), t);
        }
        return m;
    }

    private static ReadChange change(String field, String change, String key, String detail) {
        return ReadChange.newBuilder().setField(field).setChange(change).setKey(key).setDetail(detail).build();
    }

}
