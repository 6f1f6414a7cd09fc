package io.chainfeed.ingest.page;

import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.page.PageBlocks.Block;
import io.chainfeed.ingest.reference.ReferenceData;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Parses one glossary page ("AI supply chain term") into {@link TermContent}.
 *
 * <p>
 * The page is expected in the site's layout: a title, a one-line definition, the headings
 * "What it means" and "Why it matters to investors" with paragraphs, optionally
 * "Companies on this part of the chain" (one line where names and tickers run together,
 * then a "research, not advice" line) and "Related terms" (one line where each title runs
 * into its summary and the next title). Skip-links, the kicker, "See ... in the live AI
 * chain.", product blurbs, "Explore the features", "All glossary terms" and footers are
 * dropped. Scraped text and HTML go through the same parsing path: HTML is first reduced
 * to the same blocks with jsoup.
 *
 * <p>
 * Reference data resolves the term's slug, related-term slugs and the chain layer, and
 * helps split company names from tickers; with {@link ReferenceData#empty()} the parser
 * relies on the page alone (tickers the prose mentions in parentheses). Instances are
 * immutable and thread-safe.
 *
 * <p>
 * {@link GlossaryPageLayout} sorts the blocks into parts; one extractor per part reads it
 * ({@link PreambleExtractor}, {@link CompanySectionExtractor},
 * {@link RelatedSectionExtractor}), and {@link AliasExtractor} and
 * {@link LayerHintExtractor} read the prose. Every problem goes to one
 * {@link ParseRefusal}, so a refused page lists all of them.
 */
public final class GlossaryPageParser {

    /** Largest accepted input, in UTF-8 bytes (1 MiB). */
    public static final int MAX_INPUT_BYTES = 1 << 20;

    /** Section key and heading of the "What it means" section. */
    public static final String WHAT_KEY = "what_it_means";

    /** Heading of the "What it means" section. */
    public static final String WHAT_HEADING = "What it means";

    /** Section key of the "Why it matters to investors" section. */
    public static final String WHY_KEY = "why_it_matters";

    /** Heading of the "Why it matters to investors" section. */
    public static final String WHY_HEADING = "Why it matters to investors";

    private final TermSlugs termSlugs;

    private final LayerHintExtractor layerHints;

    private final CompanySectionExtractor companies;

    private final RelatedSectionExtractor related;

    /**
     * @param reference what is known before reading the page (layers, companies with
     * listings, glossary terms); use {@link ReferenceData#empty()} for none. Not null.
     */
    public GlossaryPageParser(ReferenceData reference) {
        Objects.requireNonNull(reference, "reference");
        termSlugs = new TermSlugs(reference.terms());
        layerHints = new LayerHintExtractor(reference.layers());
        companies = new CompanySectionExtractor(new CompanyLineSplitter(reference.companies()));
        related = new RelatedSectionExtractor(new RelatedLineSplitter(termSlugs.knownTitles()), termSlugs);
    }

    /**
     * Parses a page as scraped plain text (one block per line; \r\n, blank lines,
     * no-break spaces are tolerated).
     * @param text the page text; not null
     * @param sourceUrl the page's absolute http(s) URL, or null; when present the result
     * carries a {@link Source} named from the title and the URL's host
     * @return the term, with origin {@code page}
     * @throws PageParseException when the input is empty or over
     * {@link #MAX_INPUT_BYTES}, or lacks a title, definition, "What it means" or "Why it
     * matters to investors", or a company line or related line cannot be split
     * ({@link PageParseException#missing()} says which)
     * @throws IllegalArgumentException when sourceUrl is not an absolute http(s) URL with
     * a host
     */
    public TermContent parseText(String text, String sourceUrl) {
        checkInput(text);
        URI source = checkSource(sourceUrl);
        return parse(PageBlocks.fromText(text), source);
    }

    /**
     * Parses a page as HTML: h1/h2/p/ul/li/div/a ... with nav, header (unless it holds
     * the h1), footer, aside, form, script and style dropped. jsoup parses it in memory;
     * nothing is fetched and no external entity is resolved. The same page as text and as
     * HTML gives equal results.
     * @param html the page HTML; not null
     * @param sourceUrl as for {@link #parseText}
     * @return the term, with origin {@code page}
     * @throws PageParseException as for {@link #parseText}
     * @throws IllegalArgumentException as for {@link #parseText}
     */
    public TermContent parseHtml(String html, String sourceUrl) {
        checkInput(html);
        URI source = checkSource(sourceUrl);
        return parse(PageBlocks.fromHtml(html), source);
    }

    private static void checkInput(String input) {
        if (input == null || input.isBlank()) {
            throw new PageParseException("Cannot parse glossary page: the input is empty (missing: content)",
                    List.of("content"));
        }
        if (input.length() > MAX_INPUT_BYTES || (input.length() * 3L > MAX_INPUT_BYTES
                && input.getBytes(StandardCharsets.UTF_8).length > MAX_INPUT_BYTES)) {
            throw new PageParseException("Cannot parse glossary page: the input is too large; need input of at most"
                    + " 1 MiB (" + MAX_INPUT_BYTES + " bytes of UTF-8)", List.of("input of at most 1 MiB"));
        }
    }

    private static URI checkSource(String sourceUrl) {
        if (sourceUrl == null) {
            return null;
        }
        try {
            URI uri = new URI(sourceUrl.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new IllegalArgumentException("sourceUrl must be an absolute http(s) URL: " + sourceUrl);
            }
            return uri;
        }
        catch (URISyntaxException e) {
            throw new IllegalArgumentException("sourceUrl is not a valid URL: " + sourceUrl, e);
        }
    }

    // ---------------------------------------------------------------- the shared parsing
    // path

    private TermContent parse(List<Block> blocks, URI source) {
        if (blocks.isEmpty()) {
            throw new PageParseException("Cannot parse glossary page: it has no text (missing: content)",
                    List.of("content"));
        }
        GlossaryPageLayout page = GlossaryPageLayout.of(blocks);
        ParseRefusal refusal = new ParseRefusal();

        PreambleExtractor.Preamble preamble = PreambleExtractor.extract(page.part(GlossaryPageLayout.Part.PREAMBLE),
                refusal);
        String title = preamble.title();
        String definition = preamble.definition();
        String what = page.body(GlossaryPageLayout.Part.WHAT);
        if (what.isEmpty()) {
            refusal.missing(WHAT_HEADING);
        }
        String why = page.body(GlossaryPageLayout.Part.WHY);
        if (why.isEmpty()) {
            refusal.missing(WHY_HEADING);
        }
        String prose = String.join("\n", definition, what, why);
        CompanySectionExtractor.Companies named = companies.extract(page, prose, refusal);
        List<RelatedTerm> relatedTerms = related.extract(page, refusal);
        refusal.throwIfAny(source);

        List<Source> sources = source == null ? List.of() : List
            .of(new Source(title + " \u2014 " + source.getHost().toLowerCase(Locale.ROOT), source.toString()));
        List<Section> sections = List.of(new Section(WHAT_KEY, WHAT_HEADING, what),
                new Section(WHY_KEY, WHY_HEADING, why));
        return new TermContent(termSlugs.resolve(title), title, AliasExtractor.aliases(title, definition), definition,
                sections, layerHints.layerHint(prose), named.companies(), relatedTerms, sources, named.disclaimer(),
                "page");
    }

}
