package io.chainfeed.schemas;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;

/**
 * One document of the reads index: written by the streams indexer
 * ({@link ReadDocuments#toDocument}), read back by the api, mapped strictly by
 * {@code io/chainfeed/platform/reads-index-v1.json} (a test in the platform module holds
 * the two together). Component names are the index's field names ({@link ReadFields}).
 * Instants are ISO-8601 UTC strings, as stored. Lists are never null: a document fetched
 * with a {@code _source} filter has empty lists for the fields it left out, and null for
 * the scalars. Members this record does not name (the embedder's vector fields, or fields
 * a newer indexer adds) are ignored when reading.
 *
 * @param id the read id ({@code term:<slug>}, {@code signal:<id>} ...)
 * @param kind {@code term}, {@code company} or {@code signal}, lower case
 * @param slug the read's slug
 * @param title its title
 * @param aliases other names of it
 * @param summary one-paragraph summary
 * @param sections titled blocks of text
 * @param layers chain layer tags, with evidence
 * @param companies company tags, with evidence
 * @param terms glossary term tags, with evidence
 * @param sources where the read comes from
 * @param disclaimer the research-not-advice line
 * @param version the version people see: 1, 2, 3 ...
 * @param previousVersion the one before it, null for a first version
 * @param updatedAt when the source last changed it
 * @param publishedAt when chainfeed published this version, null if unknown
 * @param observedAt a signal's observation instant, null for other reads
 * @param changes what changed against the previous version
 * @param signal a signal read's values and who decided them, null for other reads
 * @param layerIds derived: the layer tag ids, for filters
 * @param primaryLayerIds derived: ids of the primary layer tags
 * @param companySymbols derived: the company tag symbols
 * @param primaryCompanySymbols derived: symbols of the primary company tags
 * @param termSlugs derived: the term tag slugs
 * @param layerRefs derived: {@code <id>|<name>} per layer, for facet labels
 * @param companyRefs derived: {@code <symbol>|<name>} per company
 * @param termRefs derived: {@code <slug>|<title>} per term
 * @param story the story key reposts collapse on ({@link ReadDocuments#story})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReadDocument(String id, String kind, String slug, String title, List<String> aliases, String summary,
        List<Section> sections, List<LayerTag> layers, List<CompanyTag> companies, List<TermTag> terms,
        List<Source> sources, String disclaimer, Long version, Long previousVersion, String updatedAt,
        String publishedAt, String observedAt, List<Change> changes, Signal signal, List<String> layerIds,
        List<String> primaryLayerIds, List<String> companySymbols, List<String> primaryCompanySymbols,
        List<String> termSlugs, List<String> layerRefs, List<String> companyRefs, List<String> termRefs, String story) {

    /** Null lists become empty ones. */
    public ReadDocument {
        aliases = orEmpty(aliases);
        sections = orEmpty(sections);
        layers = orEmpty(layers);
        companies = orEmpty(companies);
        terms = orEmpty(terms);
        sources = orEmpty(sources);
        changes = orEmpty(changes);
        layerIds = orEmpty(layerIds);
        primaryLayerIds = orEmpty(primaryLayerIds);
        companySymbols = orEmpty(companySymbols);
        primaryCompanySymbols = orEmpty(primaryCompanySymbols);
        termSlugs = orEmpty(termSlugs);
        layerRefs = orEmpty(layerRefs);
        companyRefs = orEmpty(companyRefs);
        termRefs = orEmpty(termRefs);
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /**
     * @return the section with that key's body, null when there is none
     * @param key a section key ({@code what_it_means} ...)
     */
    public String sectionBody(String key) {
        return sections.stream().filter(s -> key.equals(s.key())).map(Section::body).findFirst().orElse(null);
    }

    /**
     * One titled block of text.
     *
     * @param key stable key ({@code what_it_means}, {@code why_it_matters} ...)
     * @param heading its heading
     * @param body its text
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Section(String key, String heading, String body) {
    }

    /**
     * A span of the read's text a tag was found on.
     *
     * @param rule the tagging rule ({@code declared-related} for a related term the
     * source lists)
     * @param field title, summary or a section key
     * @param start offset of the first character in UTF-16 code units, -1 for metadata
     * @param end offset after the last character, -1 for metadata
     * @param text the matched text
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Evidence(String rule, String field, int start, int end, String text) {
    }

    /**
     * A chain layer tag.
     *
     * @param id the layer id
     * @param name its name
     * @param confidence 0-1
     * @param primary the read is mainly about this layer
     * @param evidence the spans behind it
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record LayerTag(String id, String name, double confidence, boolean primary, List<Evidence> evidence) {

        /** Null evidence becomes an empty list. */
        public LayerTag {
            evidence = orEmpty(evidence);
        }

    }

    /**
     * A company tag.
     *
     * @param id the company id
     * @param name its name
     * @param symbol the ticker of its canonical listing
     * @param mic that listing's ISO 10383 market identifier
     * @param confidence 0-1
     * @param primary the company is a primary subject of the read
     * @param evidence the spans behind it
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CompanyTag(String id, String name, String symbol, String mic, double confidence, boolean primary,
            List<Evidence> evidence) {

        /** Null evidence becomes an empty list. */
        public CompanyTag {
            evidence = orEmpty(evidence);
        }

    }

    /**
     * A glossary term tag.
     *
     * @param slug the term's slug
     * @param title its title
     * @param summary its summary
     * @param confidence 0-1
     * @param evidence the spans behind it
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TermTag(String slug, String title, String summary, double confidence, List<Evidence> evidence) {

        /** Null evidence becomes an empty list. */
        public TermTag {
            evidence = orEmpty(evidence);
        }

    }

    /**
     * A public reference.
     *
     * @param name the publisher's name
     * @param url its absolute http(s) URL
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Source(String name, String url) {
    }

    /**
     * One difference from the previous version.
     *
     * @param field the field that changed (title, aliases, summary, sections, layers ...)
     * @param change added, removed or changed
     * @param key the item's stable key (a source's URL)
     * @param detail the item's label
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Change(String field, String change, String key, String detail) {
    }

    /**
     * A signal read's values and who decided them ({@link SignalViews#view}).
     *
     * @param direction {@code tightening} or {@code easing}
     * @param magnitude 1-5
     * @param until the horizon (ISO-8601 UTC), null for none
     * @param decidedBy {@code editor} or {@code text}
     * @param confidence 0-1
     * @param held waiting for an editor's review, not counted by the chain model
     * @param decided per value (direction, magnitude, layers, until): editor or text
     * @param evidence per value decided from the text, and {@code relevance}: its spans
     * @param review null, or an editor's review
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Signal(String direction, int magnitude, String until, String decidedBy, double confidence,
            boolean held, Map<String, String> decided, Map<String, List<Span>> evidence, Review review) {

        /** Null maps become empty ones. */
        public Signal {
            decided = decided == null ? Map.of() : decided;
            evidence = evidence == null ? Map.of() : evidence;
        }

    }

    /**
     * A span of a signal's text behind a decided value.
     *
     * @param field headline or body
     * @param offset offset of the first character, in UTF-16 code units
     * @param length its length in UTF-16 code units
     * @param text the span's text
     * @param rule the rule that matched
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Span(String field, int offset, int length, String text, String rule) {
    }

    /**
     * An editor's review of a signal.
     *
     * @param outcome confirmed or corrected
     * @param reviewedAt when (ISO-8601 UTC)
     * @param reviewedVersion the signal version reviewed
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Review(String outcome, String reviewedAt, long reviewedVersion) {
    }

}
