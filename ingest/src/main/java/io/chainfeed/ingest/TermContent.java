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
        // fields apart by NUL, list items introduced by their own control character, an
        // item's parts apart by STX: no text field holds these
        StringBuilder sb = new StringBuilder(String.join("\u0000", slug, title, String.valueOf(aliases), definition,
                String.valueOf(layerHint), disclaimer));
        sections.forEach(s -> sb.append('\u0001').append(parts(s.getKey(), s.getHeading(), s.getBody())));
        companies.forEach(c -> sb.append('\u0003').append(parts(c.getName(), c.getSymbol())));
        related.forEach(r -> sb.append('\u0004').append(parts(r.getSlug(), r.getTitle(), r.getSummary())));
        sources.forEach(s -> sb.append('\u0005').append(parts(s.getName(), s.getUrl())));
        return Sha256.hex(sb.toString());
    }

    private static String parts(Object... values) {
        StringBuilder sb = new StringBuilder().append(values[0]);
        for (int i = 1; i < values.length; i++) {
            sb.append('\u0002').append(values[i]);
        }
        return sb.toString();
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
