package io.chainfeed.api.search;

import io.chainfeed.schemas.ReadDocument;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.web.util.HtmlUtils;

/**
 * Snippets that say why a read matched, HTML-escaped with the reason wrapped in
 * {@code <mark>} (the same shape as the index's highlights): the sentence holding a
 * company tag's evidence span, and a term's definition first on the term's own read.
 */
public final class Snippets {

    /**
     * Longest sentence snippet, in characters; a longer sentence is cut around the span.
     */
    static final int MAX_CHARS = 240;

    private Snippets() {
    }

    /**
     * The sentence in which the tagger found a company (its first evidence with a span),
     * the span marked.
     * @param doc a read document as stored in the reads index ({@code title},
     * {@code summary}, {@code sections[].key/body}, {@code companies[].id/evidence[]})
     * @param companyId the company
     * @return the snippet, or null when the read has no such tag or no evidence with a
     * span that fits its field's text
     */
    public static String companyEvidence(ReadDocument doc, String companyId) {
        for (ReadDocument.CompanyTag tag : doc.companies()) {
            if (!companyId.equals(tag.id())) {
                continue;
            }
            for (ReadDocument.Evidence e : tag.evidence()) {
                String text = e.field() == null ? null : fieldText(doc, e.field());
                if (text != null && e.start() >= 0 && e.end() > e.start() && e.end() <= text.length()) {
                    return sentence(text, e.start(), e.end());
                }
            }
        }
        return null;
    }

    /**
     * The text of an evidence field: {@code title}, {@code definition} (the summary) or a
     * section key.
     */
    static String fieldText(ReadDocument doc, String field) {
        return switch (field) {
            case "title" -> doc.title();
            case "definition", "summary" -> doc.summary();
            default -> doc.sectionBody(field);
        };
    }

    /**
     * @param text a field's text
     * @param start UTF-16 offset of the span's first char
     * @param end one past its last char
     * @return the sentence around the span (cut to about {@link #MAX_CHARS} around it),
     * escaped, the span in {@code <mark>}
     */
    static String sentence(String text, int start, int end) {
        BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
        it.setText(text);
        int from = it.isBoundary(start) ? start : it.preceding(start);
        int to = it.following(end - 1);
        if (from == BreakIterator.DONE) {
            from = 0;
        }
        if (to == BreakIterator.DONE) {
            to = text.length();
        }
        String lead = "";
        String tail = "";
        int before = start - from;
        int after = to - end;
        int room = Math.max(0, MAX_CHARS - (end - start));
        if (before + after > room) {
            int keepBefore = Math.min(before, Math.max(room / 2, room - after));
            int keepAfter = Math.min(after, room - keepBefore);
            if (keepBefore < before) {
                from = start - keepBefore;
                if (Character.isLowSurrogate(text.charAt(from))) {
                    from++;
                }
                lead = "…";
            }
            if (keepAfter < after) {
                to = end + keepAfter;
                if (to < text.length() && Character.isLowSurrogate(text.charAt(to))) {
                    to--;
                }
                tail = "…";
            }
        }
        return (lead + HtmlUtils.htmlEscape(text.substring(from, start)) + "<mark>"
                + HtmlUtils.htmlEscape(text.substring(start, end)) + "</mark>"
                + HtmlUtils.htmlEscape(text.substring(end, to)))
            .strip() + tail;
    }

    /**
     * A term's own read leads with its definition: the highlighted summary if the index
     * highlighted it, else the summary escaped.
     * @param doc the read document
     * @param snippets the highlights, escaped, best first
     * @return the snippets with the definition first (unchanged for a signal)
     */
    public static List<String> definitionFirst(ReadDocument doc, List<String> snippets) {
        String summary = doc.summary();
        if (!"term".equals(doc.kind()) || summary == null || summary.isBlank()) {
            return snippets;
        }
        List<String> out = new ArrayList<>(snippets.size() + 1);
        String definition = null;
        for (String s : snippets) {
            if (definition == null && Matches.unhighlight(s).equals(summary.strip())) {
                definition = s;
            }
            else {
                out.add(s);
            }
        }
        out.add(0, definition != null ? definition : HtmlUtils.htmlEscape(summary.strip()));
        return out;
    }

    /**
     * @param snippets snippets
     * @param first a snippet to put first, or null
     * @return the snippets with {@code first} leading, any other with the same text
     * dropped
     */
    public static List<String> lead(List<String> snippets, String first) {
        if (first == null) {
            return snippets;
        }
        List<String> out = new ArrayList<>();
        out.add(first);
        String plain = Matches.unhighlight(first).replace("…", "");
        for (String s : snippets) {
            if (!Matches.unhighlight(s).equals(plain)) {
                out.add(s);
            }
        }
        return out;
    }

}
