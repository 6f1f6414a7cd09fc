package io.chainfeed.api.feed;

import io.chainfeed.api.reads.ReadView;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.schemas.ReadDocument;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One read as a feed entry, format-neutral: both the Atom and the JSON Feed writer render
 * it. Every string is already cleaned of the characters XML 1.0 forbids
 * ({@link XmlChars}); nothing is escaped.
 *
 * @param readId the read id, e.g. {@code term:rdma}
 * @param id the entry id, stable across versions ({@link FeedLinks#entryId})
 * @param kind {@code term}, {@code signal} or {@code state}
 * @param title the read's title
 * @param summary its one-line definition or headline
 * @param sections its sections, in order
 * @param updated when chainfeed published this version of the read ({@code publishedAt};
 * its {@code updatedAt} for a read indexed before that field existed), UTC, truncated to
 * whole seconds: Atom {@code updated}, JSON Feed {@code date_modified}, and the feed
 * order
 * @param observedAt for a signal, when its event was observed (UTC, whole seconds); null
 * for a term
 * @param version its version as people count them: 1, 2, 3 ...
 * @param previousVersion the version it supersedes ({@code version - 1}), or null for
 * version 1
 * @param categories kind, layers, companies and terms (self included for a term read),
 * each with a scheme
 * @param sources the public references a reader can check it against
 * @param disclaimer the read's disclaimer
 * @param changes what changed against the previous version (term history)
 * @param link the absolute URL of the read's page: the term page, the layer page for a
 * state read, or for a signal its source
 * @param signal for a signal read, its {@code signal} object (direction, magnitude,
 * until, decidedBy, confidence, held, decided, evidence, review:
 * {@code io.chainfeed.schemas.SignalViews}); null otherwise
 */
public record FeedEntry(String readId, String id, String kind, String title, String summary, List<Section> sections,
        Instant updated, Instant observedAt, long version, Long previousVersion, List<Category> categories,
        List<Source> sources, String disclaimer, List<Change> changes, String link, ReadView.SignalView signal) {

    /** A titled block of text. */
    public record Section(String heading, String body) {
    }

    /**
     * A category: {@code term} is the machine value (layer id, listing symbol, term slug,
     * kind), {@code label} what a person reads, {@code type} one of layer, company, term,
     * kind.
     */
    @Schema(name = "FeedCategory")
    public record Category(String type, String scheme, String term, String label) {
    }

    /** A public reference. */
    @Schema(name = "FeedSource")
    public record Source(String name, String url) {
    }

    /**
     * One change against the previous version; {@code text} is the sentence a reader
     * sees.
     */
    @Schema(name = "FeedChange")
    public record Change(String field, String change, String key, String detail, String text) {
    }

    /**
     * @param doc a read document as stored in the reads index
     * @param links ids and schemes
     * @param base the absolute base URL of the API ({@link FeedLinks#base})
     * @return the entry
     */
    public static FeedEntry of(ReadDocument doc, FeedLinks links, String base) {
        String readId = text(doc.id());
        String kind = text(doc.kind());
        String slug = text(doc.slug());
        String title = text(doc.title());
        List<Section> sections = new ArrayList<>();
        for (ReadDocument.Section s : doc.sections()) {
            sections.add(new Section(text(s.heading()), text(s.body())));
        }
        List<Category> categories = new ArrayList<>();
        categories.add(new Category("kind", links.scheme("kind"), kind, kind));
        Set<String> seen = new LinkedHashSet<>();
        for (ReadDocument.LayerTag l : doc.layers()) {
            add(categories, seen, "layer", links, text(l.id()), text(l.name()));
        }
        for (ReadDocument.CompanyTag c : doc.companies()) {
            add(categories, seen, "company", links, text(c.symbol()), text(c.name()));
        }
        if ("term".equals(kind)) {
            add(categories, seen, "term", links, slug, title);
        }
        for (ReadDocument.TermTag t : doc.terms()) {
            add(categories, seen, "term", links, text(t.slug()), text(t.title()));
        }
        List<Source> sources = new ArrayList<>();
        for (ReadDocument.Source s : doc.sources()) {
            sources.add(new Source(text(s.name()), text(s.url())));
        }
        List<Change> changes = new ArrayList<>();
        for (ReadView.Change c : ReadViews.changes(doc)) {
            changes.add(new Change(c.field(), c.change(), c.key(), c.detail(), c.text()));
        }
        String link = "term".equals(kind) ? base + "/terms/" + FeedLinks.segment(slug)
                : "state".equals(kind) ? base + "/layers/" + FeedLinks.segment(slug)
                        : sources.stream()
                            .map(Source::url)
                            .filter(FeedEntry::isWebUrl)
                            .findFirst()
                            .orElse(base + "/api/v1/reads/" + FeedLinks.segment(readId));
        Instant updated = Instant.parse(text(doc.publishedAt() != null ? doc.publishedAt() : doc.updatedAt()))
            .truncatedTo(ChronoUnit.SECONDS);
        Instant observedAt = doc.observedAt() == null ? null
                : Instant.parse(text(doc.observedAt())).truncatedTo(ChronoUnit.SECONDS);
        long version = doc.version() == null ? 0L : doc.version();
        return new FeedEntry(readId, links.entryId(readId), kind, title, text(doc.summary()), sections, updated,
                observedAt, version, doc.previousVersion(), categories, sources, text(doc.disclaimer()), changes, link,
                ReadViews.signal(doc.signal()));
    }

    /**
     * @return whether the URL is an absolute http(s) URI (RFC 3986) with a host: only
     * such URLs become links
     */
    public static boolean isWebUrl(String url) {
        if (url == null || !(url.startsWith("https://") || url.startsWith("http://"))) {
            return false;
        }
        try {
            return new URI(url).getHost() != null;
        }
        catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * The entry as plain text, what a reader shows as its body: what changed (for an
     * updated entry), the summary, the sections, the sources and the disclaimer.
     * @return lines separated by {@code \n}, paragraphs by a blank line; not escaped
     */
    public String contentText() {
        StringBuilder out = new StringBuilder();
        if (!changes.isEmpty()) {
            out.append("What changed in this version");
            if (previousVersion != null) {
                out.append(" (since version ").append(previousVersion).append(')');
            }
            out.append(":\n");
            for (Change c : changes) {
                out.append("- ").append(c.text()).append('\n');
            }
            out.append('\n');
        }
        out.append(summary).append("\n\n");
        if (observedAt != null) {
            out.append("Observed ").append(observedAt).append("\n\n");
        }
        for (Section s : sections) {
            out.append(s.heading()).append('\n').append(s.body()).append("\n\n");
        }
        if (!sources.isEmpty()) {
            out.append("Sources:\n");
            for (Source s : sources) {
                out.append("- ").append(s.name()).append(": ").append(s.url()).append('\n');
            }
            out.append('\n');
        }
        out.append(disclaimer);
        return out.toString();
    }

    private static void add(List<Category> out, Set<String> seen, String type, FeedLinks links, String term,
            String label) {
        if (!term.isEmpty() && seen.add(type + "\u0000" + term)) {
            out.add(new Category(type, links.scheme(type), term, label.isEmpty() ? term : label));
        }
    }

    private static String text(Object o) {
        return XmlChars.clean(Objects.toString(o, ""));
    }
}
