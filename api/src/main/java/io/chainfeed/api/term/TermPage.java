package io.chainfeed.api.term;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.chainfeed.api.reads.ReadView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * {@code GET /api/v1/terms/{slug}}: a glossary term's page. The members of
 * {@link ReadView} (without tag evidence, layers primary first, related terms resolved),
 * then the term's primary layer and its version history. Instants are ISO-8601 strings in
 * UTC.
 *
 * @param id {@code term:<slug>}
 * @param kind {@code term}
 * @param slug the term's slug
 * @param title its title
 * @param aliases other names
 * @param summary one paragraph, plain text
 * @param sections the definition's sections
 * @param layers its layers, primary first
 * @param companies companies it is tagged with
 * @param related the terms the source lists as related, resolved to their own reads
 * @param terms every term tag
 * @param sources where the definition comes from
 * @param disclaimer research, not advice
 * @param version the version people see: 1, 2, 3 ...
 * @param updatedAt when this version was written (UTC)
 * @param previousVersion the version before, null for a first version
 * @param publishedAt when chainfeed published this version (UTC)
 * @param observedAt null for a term
 * @param changes what changed against the previous version
 * @param layer the first of {@code layers}, null when none
 * @param history the versions the index keeps (the current one)
 */
public record TermPage(String id, String kind, String slug, String title, List<String> aliases, String summary,
        List<ReadView.Section> sections, List<ReadView.LayerTag> layers, List<ReadView.CompanyTag> companies,
        List<RelatedTerm> related, List<ReadView.TermTag> terms, List<ReadView.Source> sources, String disclaimer,
        Long version, String updatedAt, Long previousVersion, String publishedAt, String observedAt,
        List<ReadView.Change> changes, ReadView.LayerTag layer, List<Version> history) {

    /**
     * A related term, resolved to its own read.
     *
     * @param slug its slug
     * @param title its title (from its own read when there is one)
     * @param summary its summary (from its own read when there is one)
     * @param confidence 0-1
     * @param exists whether chainfeed has a read of it
     * @param href its API path; absent when it does not exist
     */
    public record RelatedTerm(String slug, String title, String summary, double confidence, boolean exists,
            @JsonInclude(JsonInclude.Include.NON_NULL) String href) {
    }

    /**
     * A version of the term.
     *
     * @param version 1, 2, 3 ...
     * @param updatedAt when it was written (UTC)
     * @param previousVersion the version before, null for the first
     * @param changes what changed against it
     */
    @Schema(name = "TermVersion")
    public record Version(Long version, String updatedAt, Long previousVersion, List<ReadView.Change> changes) {
    }

}
