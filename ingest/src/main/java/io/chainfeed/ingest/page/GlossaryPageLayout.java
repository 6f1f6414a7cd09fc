package io.chainfeed.ingest.page;

import io.chainfeed.ingest.page.PageBlocks.Block;
import io.chainfeed.ingest.page.PageBlocks.Kind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A glossary page's blocks sorted into the preamble (title and definition) and the
 * sections the site's layout names by heading, with navigation noise dropped and
 * everything after a marketing or footer line ("See ... in the live AI chain.", "Explore
 * the features", "All glossary terms", a copyright) cut off. The section extractors each
 * read one part.
 */
final class GlossaryPageLayout {

    /**
     * The parts of a page: what comes before the first heading, each known section, and
     * the rest.
     */
    enum Part {

        PREAMBLE, WHAT, WHY, COMPANIES, RELATED, OTHER

    }

    private static final Map<String, Part> HEADINGS = Map.of("what it means", Part.WHAT, "why it matters to investors",
            Part.WHY, "why it matters", Part.WHY, "companies on this part of the chain", Part.COMPANIES,
            "companies in this part of the chain", Part.COMPANIES, "related terms", Part.RELATED,
            "related glossary terms", Part.RELATED);

    /**
     * Lines dropped wherever they are (compared folded, trailing ':' and '.' removed).
     */
    private static final List<Pattern> NOISE = List.of(Pattern.compile("(skip|jump) to (the )?(main )?content"),
            Pattern.compile("(ai )?supply chain (term|glossary|glossary term)"),
            Pattern.compile("(ai )?glossary( term)?"));

    /** Marketing and footer lines: the current section's content ends there. */
    private static final List<Pattern> STOP = List.of(Pattern.compile("see .+ in the live .*chain"),
            Pattern.compile("explore (the |all |our )?features"),
            Pattern.compile("(all|browse|view all|back to)( the)?( ai)? glossary( terms)?"),
            Pattern.compile("(\u00a9|\\(c\\)|copyright) .*"));

    /**
     * Fixed lines (headings, nav, marketing) are short; longer lines are never matched
     * against them.
     */
    private static final int MAX_FIXED_LINE = 400;

    private final Map<Part, List<Block>> parts = new EnumMap<>(Part.class);

    private final Set<Part> headings = EnumSet.noneOf(Part.class);

    private GlossaryPageLayout() {
        for (Part p : Part.values()) {
            parts.put(p, new ArrayList<>());
        }
    }

    /**
     * @param blocks the page's blocks, in page order
     * @return the blocks of each part
     */
    static GlossaryPageLayout of(List<Block> blocks) {
        GlossaryPageLayout page = new GlossaryPageLayout();
        page.layout(blocks);
        return page;
    }

    /**
     * @return the blocks of one part, in page order; empty when the page has none
     */
    List<Block> part(Part part) {
        return parts.get(part);
    }

    /**
     * @return whether the page has the heading of that part (its content may still be
     * empty)
     */
    boolean has(Part part) {
        return headings.contains(part);
    }

    /** The text of a part, or "" when the page lacks its heading. */
    String body(Part part) {
        return has(part) ? body(parts.get(part)) : "";
    }

    /**
     * Sorts blocks into the preamble and the sections, dropping noise and everything
     * after a stop line.
     */
    private void layout(List<Block> blocks) {
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
                // An HTML heading this parser does not know ends the section; its content
                // is not the term's.
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

    /** Paragraphs as a reader sees them, separated by a blank line. */
    static String body(List<Block> blocks) {
        List<String> paragraphs = new ArrayList<>();
        for (Block b : blocks) {
            String text = b.plainText().strip();
            if (!text.isEmpty()) {
                paragraphs.add(text);
            }
        }
        return String.join("\n\n", paragraphs);
    }

}
