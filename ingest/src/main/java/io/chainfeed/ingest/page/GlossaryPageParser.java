package io.chainfeed.ingest.page;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.Slugs;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.page.PageBlocks.Block;
import io.chainfeed.ingest.page.PageBlocks.Kind;
import io.chainfeed.ingest.reference.ReferenceData;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses one glossary page ("AI supply chain term") into {@link TermContent}.
 *
 * <p>The page is expected in the site's layout: a title, a one-line definition, the headings
 * "What it means" and "Why it matters to investors" with paragraphs, optionally "Companies on this
 * part of the chain" (one line where names and tickers run together, then a "research, not advice"
 * line) and "Related terms" (one line where each title runs into its summary and the next title).
 * Skip-links, the kicker, "See ... in the live AI chain.", product blurbs, "Explore the features",
 * "All glossary terms" and footers are dropped. Scraped text and HTML go through the same parsing
 * path: HTML is first reduced to the same blocks with jsoup.
 *
 * <p>Reference data resolves the term's slug, related-term slugs and the chain layer, and helps
 * split company names from tickers; with {@link ReferenceData#empty()} the parser relies on the
 * page alone (tickers the prose mentions in parentheses). Instances are immutable and thread-safe.
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

    private static final String COMPANIES_HEADING = "Companies on this part of the chain";
    private static final String RELATED_HEADING = "Related terms";

    private enum Part { PREAMBLE, WHAT, WHY, COMPANIES, RELATED, OTHER }

    private static final Map<String, Part> HEADINGS = Map.of(
            "what it means", Part.WHAT,
            "why it matters to investors", Part.WHY,
            "why it matters", Part.WHY,
            "companies on this part of the chain", Part.COMPANIES,
            "companies in this part of the chain", Part.COMPANIES,
            "related terms", Part.RELATED,
            "related glossary terms", Part.RELATED);

    /** Lines dropped wherever they are (compared folded, trailing ':' and '.' removed). */
    private static final List<Pattern> NOISE = List.of(
            Pattern.compile("(skip|jump) to (the )?(main )?content"),
            Pattern.compile("(ai )?supply chain (term|glossary|glossary term)"),
            Pattern.compile("(ai )?glossary( term)?"));

    /** Marketing and footer lines: the current section's content ends there. */
    private static final List<Pattern> STOP = List.of(
            Pattern.compile("see .+ in the live .*chain"),
            Pattern.compile("explore (the |all |our )?features"),
            Pattern.compile("(all|browse|view all|back to)( the)?( ai)? glossary( terms)?"),
            Pattern.compile("(\u00a9|\\(c\\)|copyright) .*"));

    /** At most this many failures of one kind are listed in a refusal, each cut to MAX_REPORTED_CHARS. */
    private static final int MAX_REPORTED = 5;
    private static final int MAX_REPORTED_CHARS = 200;
    /** How far back (chars) from a parenthesis names and expansions are looked for. */
    private static final int WINDOW = 300;
    /** Fixed lines (headings, nav, marketing) are short; longer lines are never matched against them. */
    private static final int MAX_FIXED_LINE = 400;

    private static final Pattern PAREN = Pattern.compile("\\(([^()\\n]{1,120})\\)");
    private static final Pattern EXCHANGE_PREFIX = Pattern.compile("^[A-Za-z][A-Za-z .]{0,24}:\\s*");
    private static final Pattern TRAILING_PARENTHETICAL = Pattern.compile("^(.*?)\\s*\\(([^()]+)\\)\\s*$");
    private static final Pattern FOLLOWED_BY_LAYER =
            Pattern.compile("\\s+layers?(?![\\p{L}\\p{N}])", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern RAW_LAYER = Pattern.compile(
            "(?<![\\p{L}\\p{N}\\-])(\\p{L}[\\p{L}\\p{N}\\-]*)\\s+(layer)(?![\\p{L}\\p{N}])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Set<String> LAYER_STOPWORDS = Set.of("the", "a", "an", "this", "that", "these", "those",
            "each", "every", "one", "which", "same", "other", "another", "any", "its", "their", "our", "your",
            "whole", "entire", "next", "first", "last", "single", "new", "given", "that's");

    private record LayerTerm(String id, Pattern pattern, boolean namesLayer) {
    }

    private final Map<String, String> termSlugs = new HashMap<>();
    private final List<LayerTerm> layerTerms = new ArrayList<>();
    private final CompanyLineSplitter companySplitter;
    private final RelatedLineSplitter relatedSplitter;

    /**
     * @param reference what is known before reading the page (layers, companies with listings,
     *                  glossary terms); use {@link ReferenceData#empty()} for none. Not null.
     */
    public GlossaryPageParser(ReferenceData reference) {
        Objects.requireNonNull(reference, "reference");
        List<String> knownTitles = new ArrayList<>();
        for (ReferenceData.KnownTerm term : reference.terms()) {
            termSlugs.putIfAbsent(PageText.key(term.title()), term.slug());
            knownTitles.add(term.title());
            for (String alias : term.aliases()) {
                termSlugs.putIfAbsent(PageText.key(alias), term.slug());
                knownTitles.add(alias);
            }
        }
        termSlugs.remove("");
        for (ChainLayer layer : reference.layers()) {
            String id = layer.getId().toString();
            List<String> names = new ArrayList<>();
            names.add(layer.getName().toString());
            layer.getAliases().forEach(a -> names.add(a.toString()));
            names.add(id);
            for (String name : names) {
                String key = PageText.key(name);
                if (key.isEmpty()) {
                    continue;
                }
                String[] words = key.split(" ");
                StringBuilder regex = new StringBuilder("(?<![\\p{L}\\p{N}])");
                for (int i = 0; i < words.length; i++) {
                    regex.append(i == 0 ? "" : "[\\s\\-\u2010\u2011]+").append(Pattern.quote(words[i]));
                }
                regex.append("(?![\\p{L}\\p{N}])");
                String last = words[words.length - 1];
                layerTerms.add(new LayerTerm(id,
                        Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
                        last.equals("layer") || last.equals("layers")));
            }
        }
        companySplitter = new CompanyLineSplitter(reference.companies());
        relatedSplitter = new RelatedLineSplitter(knownTitles);
    }

    /**
     * Parses a page as scraped plain text (one block per line; \r\n, blank lines, no-break spaces
     * are tolerated).
     *
     * @param text      the page text; not null
     * @param sourceUrl the page's absolute http(s) URL, or null; when present the result carries a
     *                  {@link Source} named from the title and the URL's host
     * @return the term, with origin {@code page}
     * @throws PageParseException       when the input is empty or over {@link #MAX_INPUT_BYTES}, or
     *                                  lacks a title, definition, "What it means" or "Why it
     *                                  matters to investors", or a company line or related line
     *                                  cannot be split ({@link PageParseException#missing()} says
     *                                  which)
     * @throws IllegalArgumentException when sourceUrl is not an absolute http(s) URL with a host
     */
    public TermContent parseText(String text, String sourceUrl) {
        checkInput(text);
        URI source = checkSource(sourceUrl);
        return parse(PageBlocks.fromText(text), source);
    }

    /**
     * Parses a page as HTML: h1/h2/p/ul/li/div/a ... with nav, header (unless it holds the h1),
     * footer, aside, form, script and style dropped. jsoup parses it in memory; nothing is fetched
     * and no external entity is resolved. The same page as text and as HTML gives equal results.
     *
     * @param html      the page HTML; not null
     * @param sourceUrl as for {@link #parseText}
     * @return the term, with origin {@code page}
     * @throws PageParseException       as for {@link #parseText}
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
        if (input.length() > MAX_INPUT_BYTES
                || (input.length() * 3L > MAX_INPUT_BYTES
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
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("sourceUrl is not a valid URL: " + sourceUrl, e);
        }
    }

    // ---------------------------------------------------------------- the shared parsing path

    private TermContent parse(List<Block> blocks, URI source) {
        if (blocks.isEmpty()) {
            throw new PageParseException("Cannot parse glossary page: it has no text (missing: content)",
                    List.of("content"));
        }
        Map<Part, List<Block>> parts = new EnumMap<>(Part.class);
        for (Part p : Part.values()) {
            parts.put(p, new ArrayList<>());
        }
        Set<Part> headings = EnumSet.noneOf(Part.class);
        layout(blocks, parts, headings);

        List<String> missing = new ArrayList<>();

        // Title and definition from the blocks before the first heading.
        List<Block> pre = parts.get(Part.PREAMBLE);
        String title = null;
        List<Block> definitionBlocks = List.of();
        // The title is the title-like block right before the first sentence-like block (the
        // definition); failing that, the last h1; with neither, the last title-like block.
        int h1 = -1;
        int d = -1;
        for (int i = 0; i < pre.size(); i++) {
            if (pre.get(i).kind() == Kind.TITLE) {
                h1 = i;
            }
            if (d < 0 && sentenceLike(oneLine(pre.get(i)))) {
                d = i;
            }
        }
        if (d > 0 && titleLike(oneLine(pre.get(d - 1)))) {
            title = oneLine(pre.get(d - 1));
            definitionBlocks = pre.subList(d, pre.size());
        } else if (h1 >= 0) {
            title = oneLine(pre.get(h1));
            definitionBlocks = pre.subList(h1 + 1, pre.size());
        } else if (d < 0) {
            for (Block b : pre) {
                if (titleLike(oneLine(b))) {
                    title = oneLine(b);
                }
            }
        } else {
            definitionBlocks = pre.subList(d, pre.size());
        }
        if (title == null || Slugs.slugify(title).isEmpty()) {
            missing.add("title");
            title = null;
        }
        String definition = body(definitionBlocks);
        if (definition.isEmpty()) {
            missing.add("definition");
        }

        String what = headings.contains(Part.WHAT) ? body(parts.get(Part.WHAT)) : "";
        if (what.isEmpty()) {
            missing.add(WHAT_HEADING);
        }
        String why = headings.contains(Part.WHY) ? body(parts.get(Part.WHY)) : "";
        if (why.isEmpty()) {
            missing.add(WHY_HEADING);
        }
        String prose = String.join("\n", definition, what, why);

        // Companies and the page's own disclaimer.
        List<CompanyMention> companies = new ArrayList<>();
        String disclaimer = TermContent.DEFAULT_DISCLAIMER;
        if (headings.contains(Part.COMPANIES)) {
            List<String> lines = new ArrayList<>();
            boolean seenDisclaimer = false;
            for (Block b : parts.get(Part.COMPANIES)) {
                for (String line : b.lines()) {
                    if (PageText.isDisclaimer(line)) {
                        if (!seenDisclaimer) {
                            disclaimer = PageText.plain(line);
                        }
                        seenDisclaimer = true;
                    } else if (!seenDisclaimer) {
                        lines.add(line);
                    }
                }
            }
            if (lines.isEmpty()) {
                missing.add("company line under \"" + COMPANIES_HEADING + "\"");
            }
            Map<String, String> mentions = mentionedTickers(prose);
            List<String> failures = new ArrayList<>();
            for (String line : lines) {
                Optional<List<CompanyMention>> split = companySplitter.split(line, mentions);
                if (split.isPresent()) {
                    companies.addAll(split.get());
                } else {
                    failures.add(PageText.plain(line));
                }
            }
            report(missing, "company/ticker split: ", failures);
        }

        // Related terms: the first block must parse; later blocks only while they parse.
        List<RelatedTerm> related = new ArrayList<>();
        if (headings.contains(Part.RELATED)) {
            List<Block> relatedBlocks = parts.get(Part.RELATED);
            if (relatedBlocks.isEmpty()) {
                missing.add("related terms line under \"" + RELATED_HEADING + "\"");
            }
            for (int bi = 0; bi < relatedBlocks.size(); bi++) {
                List<RelatedTerm> parsed = new ArrayList<>();
                List<String> failures = new ArrayList<>();
                for (String line : relatedBlocks.get(bi).lines()) {
                    for (String item : relatedSplitter.items(line)) {
                        RelatedLineSplitter.Item it = relatedSplitter.split(item);
                        if (it == null) {
                            failures.add(PageText.plain(item));
                        } else {
                            parsed.add(new RelatedTerm(resolveTerm(it.title()), it.title(), it.summary()));
                        }
                    }
                }
                if (bi == 0) {
                    report(missing, "related term title/summary split: ", failures);
                } else if (!failures.isEmpty()) {
                    break;
                }
                related.addAll(parsed);
            }
        }

        if (!missing.isEmpty()) {
            throw new PageParseException("Cannot parse glossary page" + (source == null ? "" : " " + source)
                    + ": missing or unparseable: " + String.join("; ", missing), missing);
        }

        List<Source> sources = source == null ? List.of()
                : List.of(new Source(title + " \u2014 " + source.getHost().toLowerCase(Locale.ROOT), source.toString()));
        List<Section> sections = List.of(new Section(WHAT_KEY, WHAT_HEADING, what), new Section(WHY_KEY, WHY_HEADING, why));
        return new TermContent(resolveTerm(title), title, aliases(title, definition), definition, sections,
                layerHint(prose), companies, related, sources, disclaimer, "page");
    }

    /** Adds the first few failures (each cut to a readable length) and a count of the rest. */
    private static void report(List<String> missing, String label, List<String> failures) {
        for (int i = 0; i < Math.min(failures.size(), MAX_REPORTED); i++) {
            String f = failures.get(i);
            missing.add(label + (f.length() <= MAX_REPORTED_CHARS ? f : f.substring(0, MAX_REPORTED_CHARS) + "…"));
        }
        if (failures.size() > MAX_REPORTED) {
            missing.add(label + (failures.size() - MAX_REPORTED) + " more");
        }
    }

    /** Sorts blocks into the preamble and the sections, dropping noise and everything after a stop line. */
    private static void layout(List<Block> blocks, Map<Part, List<Block>> parts, Set<Part> headings) {
        Part current = Part.PREAMBLE;
        boolean stopped = false;
        for (Block block : blocks) {
            List<String> lines = block.lines().stream().filter(l -> !matchesAny(NOISE, l)).toList();
            if (lines.isEmpty()) {
                continue;
            }
            if (lines.size() == 1 && lines.get(0).length() <= MAX_FIXED_LINE) {
                Part heading = HEADINGS.get(PageText.foldLine(lines.get(0)));
                if (heading != null) {
                    current = heading;
                    headings.add(heading);
                    stopped = false;
                    continue;
                }
            }
            if (block.kind() == Kind.HEADING && current != Part.PREAMBLE) {
                // An HTML heading this parser does not know ends the section; its content is not the term's.
                current = Part.OTHER;
                stopped = false;
                continue;
            }
            if (stopped) {
                continue;
            }
            List<String> kept = new ArrayList<>();
            for (String line : lines) {
                boolean stop = matchesAny(STOP, line)
                        || (current != Part.COMPANIES && current != Part.PREAMBLE && PageText.isDisclaimer(line));
                if (stop && current == Part.PREAMBLE) {
                    continue;
                }
                if (stop) {
                    stopped = true;
                    break;
                }
                kept.add(line);
            }
            if (!kept.isEmpty()) {
                parts.get(current).add(new Block(block.kind(), kept));
            }
        }
    }

    private static boolean matchesAny(List<Pattern> patterns, String line) {
        if (line.length() > MAX_FIXED_LINE) {
            return false;
        }
        String folded = PageText.foldLine(line);
        return patterns.stream().anyMatch(p -> p.matcher(folded).matches());
    }

    private static String oneLine(Block b) {
        return PageText.cleanLine(PageText.plain(String.join(" ", b.lines())));
    }

    /** Paragraphs as a reader sees them, separated by a blank line. */
    private static String body(List<Block> blocks) {
        List<String> paragraphs = new ArrayList<>();
        for (Block b : blocks) {
            String text = b.plainText().strip();
            if (!text.isEmpty()) {
                paragraphs.add(text);
            }
        }
        return String.join("\n\n", paragraphs);
    }

    private static int words(String s) {
        String t = s.strip();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    private static boolean sentenceLike(String s) {
        int w = words(s);
        return (w >= 4 && s.strip().matches("(?s).*[.!?\u2026][\"'\u201D\u2019)]*")) || w >= 14;
    }

    private static boolean titleLike(String s) {
        return !sentenceLike(s) && s.length() <= 150 && words(s) <= 12 && !s.matches("(?s).*[.,;:]");
    }

    // ---------------------------------------------------------------- field resolution

    /** Known slug for a title (its title or an alias), also trying "X (Y)" as X, then Y; else the slugified title. */
    private String resolveTerm(String title) {
        String slug = termSlugs.get(PageText.key(title));
        if (slug == null) {
            Matcher m = TRAILING_PARENTHETICAL.matcher(title);
            if (m.matches()) {
                slug = termSlugs.get(PageText.key(m.group(1)));
                if (slug == null) {
                    slug = termSlugs.get(PageText.key(m.group(2)));
                }
            }
        }
        return slug != null ? slug : Slugs.slugify(title);
    }

    /**
     * Expansions in the definition: "RDMA (remote direct memory access)" gives "remote direct
     * memory access"; "high-bandwidth memory (HBM)" with title HBM gives "high-bandwidth memory".
     */
    private static List<String> aliases(String title, String definition) {
        String titleKey = PageText.key(title);
        String titleFold = PageText.fold(title);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = PAREN.matcher(definition);
        while (m.find()) {
            String inside = PageText.cleanLine(m.group(1));
            String insideKey = PageText.key(inside);
            if (insideKey.isEmpty() || inside.contains(":") || words(inside) > 10
                    || PageText.fold(inside).matches("(e\\.g\\.|i\\.e\\.|see |for example).*")) {
                continue;
            }
            String before = definition.substring(Math.max(0, m.start() - WINDOW), m.start()).stripTrailing();
            String beforeFold = PageText.fold(before);
            if (beforeFold.endsWith(titleFold)
                    && (beforeFold.length() == titleFold.length()
                    || !Character.isLetterOrDigit(beforeFold.charAt(beforeFold.length() - titleFold.length() - 1)))) {
                if (!insideKey.equals(titleKey)) {
                    out.putIfAbsent(insideKey, inside);
                }
            } else if (insideKey.equals(titleKey)) {
                String expansion = acronymExpansion(title, before);
                if (expansion != null) {
                    out.putIfAbsent(PageText.key(expansion), expansion);
                }
            }
        }
        return List.copyOf(out.values());
    }

    /** The words right before an acronym whose initials spell it, or null. */
    private static String acronymExpansion(String acronym, String before) {
        String letters = acronym.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
        if (letters.length() < 2) {
            return null;
        }
        String[] tokens = before.strip().split("\\s+");
        for (int k = 1; k <= Math.min(10, tokens.length); k++) {
            String[] words = new String[k];
            System.arraycopy(tokens, tokens.length - k, words, 0, k);
            words[0] = words[0].replaceAll("^[\"'\u201C\u2018(\\[]+", "");
            if (words[0].isEmpty()) {
                continue;
            }
            StringBuilder whole = new StringBuilder();
            StringBuilder parts = new StringBuilder();
            for (String w : words) {
                whole.append(Character.toLowerCase(w.charAt(0)));
                for (String part : w.split("[-\u2010\u2011]")) {
                    if (!part.isEmpty()) {
                        parts.append(Character.toLowerCase(part.charAt(0)));
                    }
                }
            }
            if (letters.contentEquals(whole) || letters.contentEquals(parts)) {
                return String.join(" ", words);
            }
        }
        return null;
    }

    /** Tickers the prose writes in parentheses ("(ANET)", "(NASDAQ: MU)", "(2345.TW)"), each with the name before it. */
    static Map<String, String> mentionedTickers(String prose) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = PAREN.matcher(prose);
        while (m.find()) {
            String name = null;
            for (String part : m.group(1).split("[,;/]|\\s+and\\s+|\\s+or\\s+")) {
                String ticker = EXCHANGE_PREFIX.matcher(part.strip()).replaceFirst("").strip();
                if (PageText.TICKER.matcher(ticker).matches()) {
                    if (name == null) {
                        name = nameBefore(prose, m.start());
                    }
                    String known = out.get(ticker);
                    if (known == null || known.isEmpty()) {
                        out.put(ticker, name);
                    }
                }
            }
        }
        return out;
    }

    /** The capitalised words right before a parenthesis: "cloud operator Oracle (" gives "Oracle". */
    private static String nameBefore(String prose, int paren) {
        String before = prose.substring(Math.max(0, paren - WINDOW), paren).stripTrailing();
        String[] tokens = before.split("\\s+");
        Deque<String> name = new ArrayDeque<>();
        for (int t = tokens.length - 1; t >= 0 && name.size() < 6; t--) {
            String tok = tokens[t];
            if (tok.isEmpty() || (!name.isEmpty() && tok.matches(".*[,;:.!?]"))) {
                break;
            }
            boolean named = tok.codePoints().anyMatch(Character::isUpperCase) || Character.isDigit(tok.charAt(0));
            boolean connector = tok.equals("&") || tok.equals("of") || tok.equals("de");
            if (named || (connector && !name.isEmpty())) {
                name.addFirst(tok);
            } else {
                break;
            }
        }
        while (!name.isEmpty() && (name.peekFirst().equals("&") || name.peekFirst().equals("of")
                || name.peekFirst().equals("de"))) {
            name.removeFirst();
        }
        return String.join(" ", name).replaceAll("^[\"'\u201C\u2018(\\[]+", "");
    }

    /**
     * The layer the prose names: a reference layer (name, alias or id, case-insensitive, whole
     * words), preferring mentions that say "layer", then the earliest; else the first raw
     * "&lt;word&gt; layer" phrase; else null.
     */
    private String layerHint(String prose) {
        String bestId = null;
        int bestRank = Integer.MAX_VALUE;
        int bestStart = Integer.MAX_VALUE;
        int bestLength = 0;
        for (LayerTerm term : layerTerms) {
            Matcher m = term.pattern().matcher(prose);
            while (m.find()) {
                boolean layerish = term.namesLayer()
                        || FOLLOWED_BY_LAYER.matcher(prose).region(m.end(), prose.length()).lookingAt();
                int rank = layerish ? 0 : 1;
                int length = m.end() - m.start();
                if (rank < bestRank || (rank == bestRank && (m.start() < bestStart
                        || (m.start() == bestStart && length > bestLength)))) {
                    bestId = term.id();
                    bestRank = rank;
                    bestStart = m.start();
                    bestLength = length;
                }
            }
        }
        if (bestId != null) {
            return bestId;
        }
        Matcher raw = RAW_LAYER.matcher(prose);
        while (raw.find()) {
            if (!LAYER_STOPWORDS.contains(PageText.fold(raw.group(1)))) {
                return raw.group(1) + " " + raw.group(2);
            }
        }
        return null;
    }
}
