package io.chainfeed.api.reads;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * A read as the API answers it ({@code GET /api/v1/reads/{id}}, search results, a
 * company's latest reads, a layer's reads). Instants are ISO-8601 strings in UTC.
 *
 * @param id the read's id ({@code term:<slug>} or {@code signal:<id>})
 * @param kind {@code term}, {@code signal} or {@code state}
 * @param slug a term's slug (a signal's id)
 * @param title the term's title or the signal's headline
 * @param aliases other names of a term
 * @param summary one paragraph, plain text
 * @param sections the read's sections in order
 * @param layers the chain layers it is tagged with
 * @param companies the companies it is tagged with
 * @param related the terms the source itself lists as related
 * @param terms every term tag: related and mentioned
 * @param sources where the read comes from
 * @param disclaimer research, not advice
 * @param version the version people see: 1, 2, 3 ...
 * @param updatedAt when this version was written (UTC)
 * @param previousVersion the version before, null for a first version
 * @param publishedAt when chainfeed published this version (UTC), null when unknown
 * @param observedAt a signal's observation instant (UTC), null for a term
 * @param changes what changed against the previous version
 * @param signal a signal read's values and who decided them; absent for other reads
 */
public record ReadView(String id, String kind, String slug, String title, List<String> aliases, String summary,
        List<Section> sections, List<LayerTag> layers, List<CompanyTag> companies, List<TermTag> related,
        List<TermTag> terms, List<Source> sources, String disclaimer, Long version, String updatedAt,
        Long previousVersion, String publishedAt, String observedAt, List<Change> changes,
        @JsonInclude(JsonInclude.Include.NON_NULL) SignalView signal) {

    /**
     * A section of a read.
     *
     * @param key stable key of the section
     * @param heading its heading
     * @param body its text
     */
    @Schema(name = "ReadSection")
    public record Section(String key, String heading, String body) {
    }

    /**
     * Where a read (or a signal) comes from.
     *
     * @param name the publisher's name
     * @param url the page it was read from
     */
    @Schema(name = "Source")
    public record Source(String name, String url) {
    }

    /**
     * A span of the read's text that a tag was found on.
     *
     * @param rule the tagging rule that matched
     * @param field the field of the read (title, summary, a section key)
     * @param start offset of the first character, in UTF-16 code units
     * @param end offset after the last character
     * @param text the matched text
     */
    public record TagEvidence(String rule, String field,
            @Schema(minimum = "-1", description = "-1 for metadata the source declares") int start,
            @Schema(minimum = "-1", description = "-1 for metadata the source declares") int end, String text) {
    }

    /**
     * A chain layer tag.
     *
     * @param id the layer's id
     * @param name its name
     * @param confidence 0-1
     * @param primary the read is mainly about this layer
     * @param evidence the spans it was found on; absent where the answer leaves evidence
     * out
     */
    public record LayerTag(String id, String name, double confidence, boolean primary,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<TagEvidence> evidence) {
    }

    /**
     * A company tag.
     *
     * @param id the company's id
     * @param name its name
     * @param symbol its canonical listing's symbol
     * @param mic that listing's ISO 10383 market identifier
     * @param confidence 0-1
     * @param primary the company is a primary subject of the read
     * @param evidence the spans it was found on; absent where the answer leaves evidence
     * out
     */
    public record CompanyTag(String id, String name, String symbol, String mic, double confidence, boolean primary,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<TagEvidence> evidence) {
    }

    /**
     * A glossary term tag.
     *
     * @param slug the term's slug
     * @param title its title
     * @param summary its summary
     * @param confidence 0-1
     * @param evidence the spans it was found on; absent where the answer leaves evidence
     * out
     */
    public record TermTag(String slug, String title, String summary, double confidence,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<TagEvidence> evidence) {
    }

    /**
     * One change against the previous version.
     *
     * @param field the field that changed (title, aliases, summary, sections, layers ...)
     * @param change added, removed or changed
     * @param key the item's stable key
     * @param detail the item's label
     * @param text the change as a plain-English sentence
     */
    @Schema(name = "ReadChange")
    public record Change(String field, String change, String key, String detail, String text) {
    }

    /**
     * A span of a signal's text behind a decided value.
     *
     * @param field headline or body
     * @param offset offset of the first character, in UTF-16 code units
     * @param length length in UTF-16 code units
     * @param text the text of the span
     * @param rule the rule that matched
     */
    public record Span(String field, int offset, int length, String text, String rule) {
    }

    /**
     * An editor's review of a signal.
     *
     * @param outcome confirmed or corrected
     * @param reviewedAt when (UTC)
     * @param reviewedVersion the version that was reviewed
     */
    @Schema(name = "SignalReview")
    public record Review(String outcome, String reviewedAt, long reviewedVersion) {
    }

    /**
     * A signal read's values and who decided them.
     *
     * @param direction tightening or easing
     * @param magnitude 1-5
     * @param until the horizon (UTC), null when none
     * @param decidedBy {@code text} or {@code editor}
     * @param confidence 0-1
     * @param held held for an editor's review, not counted by the chain model
     * @param decided per value (direction, magnitude, layers, until): editor or text
     * @param evidence per value decided from the text, and relevance: the spans behind it
     * @param review null, or the editor's review
     */
    public record SignalView(String direction, int magnitude, String until, String decidedBy, double confidence,
            boolean held, Map<String, String> decided, Map<String, List<Span>> evidence, Review review) {
    }

}
