package io.chainfeed.ingest;

import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.platform.Sha256;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The content of one glossary term, whatever it was read from (a scraped page, the
 * bundled Markdown corpus, an editor). Versioning is left to the publisher:
 * {@link #toTermUpdate} stamps it.
 *
 * @param slug stable id, e.g. {@code rdma}
 * @param title display title, e.g. {@code RDMA}
 * @param aliases other names and acronym expansions
 * @param definition the one-line definition
 * @param sections the plain-English sections (what it means, why it matters to investors
 * ...)
 * @param layerHint the chain layer the source declares: a layer id when resolved, else
 * the words used; may be null
 * @param companies companies as the source names them, with display symbols when known
 * @param related related terms with their one-line summaries
 * @param sources public references a reader can check
 * @param disclaimer the "research, not advice" line
 * @param origin where it came from: {@code page}, {@code corpus} or {@code editor}
 */
public record TermContent(String slug, String title, List<String> aliases, String definition, List<Section> sections,
        String layerHint, List<CompanyMention> companies, List<RelatedTerm> related, List<Source> sources,
        String disclaimer, String origin) {

    /** The disclaimer every read carries when its source gives none of its own. */
    public static final String DEFAULT_DISCLAIMER = "An educational read on the AI supply chain: research, not advice, and never a recommendation"
            + " to buy, sell or hold any security.";

    public TermContent {
        Objects.requireNonNull(slug, "slug");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(disclaimer, "disclaimer");
        aliases = List.copyOf(aliases);
        sections = List.copyOf(sections);
        companies = List.copyOf(companies);
        related = List.copyOf(related);
        sources = List.copyOf(sources);
        origin = origin == null ? "page" : origin;
    }

    /**
     * SHA-256 over every content field (not origin), hex encoded. Equal content gives an
     * equal hash, so a re-load of an unchanged term can be skipped.
     * @return 64 lower-case hex characters
     */
    public String contentHash() {
        StringBuilder sb = new StringBuilder();
        sb.append(slug)
            .append('\u0000')
            .append(title)
            .append('\u0000')
            .append(aliases)
            .append('\u0000')
            .append(definition)
            .append('\u0000')
            .append(layerHint)
            .append('\u0000')
            .append(disclaimer);
        sections.forEach(s -> sb.append('\u0001')
            .append(s.getKey())
            .append('\u0002')
            .append(s.getHeading())
            .append('\u0002')
            .append(s.getBody()));
        companies.forEach(c -> sb.append('\u0003').append(c.getName()).append('\u0002').append(c.getSymbol()));
        related.forEach(r -> sb.append('\u0004')
            .append(r.getSlug())
            .append('\u0002')
            .append(r.getTitle())
            .append('\u0002')
            .append(r.getSummary()));
        sources.forEach(s -> sb.append('\u0005').append(s.getName()).append('\u0002').append(s.getUrl()));
        return Sha256.hex(sb.toString());
    }

    /**
     * Builds the Avro record for this content.
     * @param version version of this slug, strictly greater than any earlier published
     * one
     * @param updatedAt publication instant (UTC)
     * @return a complete {@link TermUpdate}
     */
    public TermUpdate toTermUpdate(long version, Instant updatedAt) {
        return TermUpdate.newBuilder()
            .setSlug(slug)
            .setTitle(title)
            .setAliases(aliases)
            .setDefinition(definition)
            .setSections(sections)
            .setLayerHint(layerHint)
            .setCompanies(companies)
            .setRelated(related)
            .setSources(sources)
            .setDisclaimer(disclaimer)
            .setOrigin(origin)
            .setContentHash(contentHash())
            .setVersion(version)
            .setUpdatedAt(updatedAt)
            .build();
    }
}
