package io.chainfeed.api.reads;

import io.chainfeed.schemas.ReadDocument;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shapes a stored read document for API responses. */
public final class ReadViews {

    /** The line the term and company indexes carry. */
    public static final String INDEX_DISCLAIMER = "chainfeed is research, not advice: it summarises public sources and "
            + "says nothing about what to buy or sell.";

    private ReadViews() {
    }

    /**
     * @param doc the read as stored in the index
     * @param evidence keep tag evidence (offsets, matched text, rule) or drop it
     * @return the read: id, kind, slug, title, aliases, summary, sections, layers,
     * companies, related (the terms the source itself lists as related), terms (every
     * term tag: related and mentioned), sources, disclaimer, version (1, 2, 3 ...),
     * updatedAt, previousVersion (null for a first version), publishedAt (when chainfeed
     * published this version, ISO-8601 UTC), observedAt (a signal's observation instant;
     * null for a term) and changes (what changed against it: field, change, key, detail
     * and {@code text}, a sentence from {@link #changeText}), and for a signal read
     * {@code signal}: direction, magnitude, until, decidedBy (editor or text),
     * confidence, held, decided (per value, who), evidence (per decided value, the spans:
     * field, offset, length, text, rule) and review
     */
    public static ReadView view(ReadDocument doc, boolean evidence) {
        List<ReadDocument.TermTag> terms = doc.terms();
        return new ReadView(doc.id(), doc.kind(), doc.slug(), doc.title(), doc.aliases(), doc.summary(),
                doc.sections().stream().map(s -> new ReadView.Section(s.key(), s.heading(), s.body())).toList(),
                doc.layers()
                    .stream()
                    .map(t -> new ReadView.LayerTag(t.id(), t.name(), t.confidence(), t.primary(),
                            evidence ? tagEvidence(t.evidence()) : null))
                    .toList(),
                doc.companies()
                    .stream()
                    .map(t -> new ReadView.CompanyTag(t.id(), t.name(), t.symbol(), t.mic(), t.confidence(),
                            t.primary(), evidence ? tagEvidence(t.evidence()) : null))
                    .toList(),
                termTags(declaredRelated(terms), evidence), termTags(terms, evidence), sources(doc.sources()),
                doc.disclaimer(), doc.version(), doc.updatedAt(), doc.previousVersion(), doc.publishedAt(),
                doc.observedAt(), changes(doc), signal(doc.signal()));
    }

    /**
     * @param sources a document's sources
     * @return them as answer records
     */
    public static List<ReadView.Source> sources(List<ReadDocument.Source> sources) {
        return sources.stream().map(ReadViews::source).toList();
    }

    /**
     * @param source a document's source
     * @return it as the answer record
     */
    public static ReadView.Source source(ReadDocument.Source source) {
        return new ReadView.Source(source.name(), source.url());
    }

    private static List<ReadView.TermTag> termTags(List<ReadDocument.TermTag> tags, boolean evidence) {
        return tags.stream()
            .map(t -> new ReadView.TermTag(t.slug(), t.title(), t.summary(), t.confidence(),
                    evidence ? tagEvidence(t.evidence()) : null))
            .toList();
    }

    private static List<ReadView.TagEvidence> tagEvidence(List<ReadDocument.Evidence> evidence) {
        return evidence.stream()
            .map(e -> new ReadView.TagEvidence(e.rule(), e.field(), e.start(), e.end(), e.text()))
            .toList();
    }

    /**
     * The term history of a stored read.
     * @param doc the read as stored in the index
     * @return its {@code changes}, each with field, change, key, detail and text; empty
     * when the document has none (a first version, or indexed before term history
     * existed)
     */
    public static List<ReadView.Change> changes(ReadDocument doc) {
        return doc.changes().stream().map(c -> {
            String field = orEmpty(c.field());
            String change = orEmpty(c.change());
            String key = orEmpty(c.key());
            String detail = orEmpty(c.detail());
            return new ReadView.Change(field, change, key, detail, changeText(field, change, key, detail));
        }).toList();
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /**
     * One change as a plain-English sentence, e.g.
     * {@code Section “Why it matters” changed},
     * {@code Company “Arista Networks (ANET)” added} or
     * {@code Source “JEDEC” added (https://www.jedec.org/)}. Plain text: escape it for
     * the output format.
     * @param field title, aliases, summary, sections, layers, companies, related, terms,
     * sources, disclaimer (anything else is named as it is)
     * @param change added, removed or changed
     * @param key the item's stable key (for a source: its URL, which the sentence names,
     * since two sources may share a name)
     * @param detail the label of the item (for title: the new title)
     * @return the sentence, without a final full stop
     */
    public static String changeText(String field, String change, String key, String detail) {
        String what = switch (field) {
            case "title" -> "Title";
            case "summary" -> "Summary";
            case "disclaimer" -> "Disclaimer";
            case "aliases" -> "Alias";
            case "sections" -> "Section";
            case "layers" -> "Layer";
            case "companies" -> "Company";
            case "related" -> "Related term";
            case "terms" -> "Mentioned term";
            case "sources" -> "Source";
            default -> field;
        };
        if (field.equals("title") && change.equals("changed")) {
            return "Title changed to “" + detail + "”";
        }
        if (field.equals("summary") || field.equals("disclaimer") || detail.isEmpty()) {
            return what + " " + change;
        }
        String sentence = what + " “" + detail + "” " + change;
        return field.equals("sources") && !key.isEmpty() && !key.equals(detail) ? sentence + " (" + key + ")"
                : sentence;
    }

    /**
     * The term tags with {@code declared-related} evidence: the related terms the source
     * lists.
     * @param termTags a document's term tags
     * @return those the source declares related, in order
     */
    public static List<ReadDocument.TermTag> declaredRelated(List<ReadDocument.TermTag> termTags) {
        return termTags.stream()
            .filter(t -> t.evidence().stream().anyMatch(e -> "declared-related".equals(e.rule())))
            .toList();
    }

    /**
     * @param stored a read document's {@code signal}, or null
     * @return it as the answer record, null for null
     */
    public static ReadView.SignalView signal(ReadDocument.Signal stored) {
        if (stored == null) {
            return null;
        }
        Map<String, List<ReadView.Span>> evidence = new LinkedHashMap<>();
        stored.evidence()
            .forEach((value, spans) -> evidence.put(value,
                    spans.stream()
                        .map(x -> new ReadView.Span(x.field(), x.offset(), x.length(), x.text(), x.rule()))
                        .toList()));
        ReadDocument.Review r = stored.review();
        return new ReadView.SignalView(stored.direction(), stored.magnitude(), stored.until(), stored.decidedBy(),
                stored.confidence(), stored.held(), stored.decided(), evidence,
                r == null ? null : new ReadView.Review(r.outcome(), r.reviewedAt(), r.reviewedVersion()));
    }

}
