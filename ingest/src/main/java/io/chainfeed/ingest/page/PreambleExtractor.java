package io.chainfeed.ingest.page;

import io.chainfeed.ingest.Slugs;
import io.chainfeed.ingest.page.PageBlocks.Block;
import io.chainfeed.ingest.page.PageBlocks.Kind;
import java.util.List;

/**
 * The title and the one-line definition, from the blocks before a page's first heading.
 * The title is the title-like block right before the first sentence-like block (the
 * definition); failing that, the last h1; with neither, the last title-like block.
 */
final class PreambleExtractor {

    /**
     * @param title the term's title, or null when the page has none (then reported
     * missing)
     * @param definition the definition's paragraphs, or "" (then reported missing)
     */
    record Preamble(String title, String definition) {
    }

    private PreambleExtractor() {
    }

    /**
     * @param pre the preamble's blocks
     * @param refusal where a missing title or definition is reported
     * @return the title and definition
     */
    static Preamble extract(List<Block> pre, ParseRefusal refusal) {
        String title = null;
        List<Block> definitionBlocks = List.of();
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
        }
        else if (h1 >= 0) {
            title = oneLine(pre.get(h1));
            definitionBlocks = pre.subList(h1 + 1, pre.size());
        }
        else if (d < 0) {
            for (Block b : pre) {
                if (titleLike(oneLine(b))) {
                    title = oneLine(b);
                }
            }
        }
        else {
            definitionBlocks = pre.subList(d, pre.size());
        }
        if (title == null || Slugs.slugify(title).isEmpty()) {
            refusal.missing("title");
            title = null;
        }
        String definition = GlossaryPageLayout.body(definitionBlocks);
        if (definition.isEmpty()) {
            refusal.missing("definition");
        }
        return new Preamble(title, definition);
    }

    private static String oneLine(Block b) {
        return PageText.cleanLine(PageText.plain(String.join(" ", b.lines())));
    }

    private static boolean sentenceLike(String s) {
        int w = PageText.words(s);
        return (w >= 4 && s.strip().matches("(?s).*[.!?\u2026][\"'\u201D\u2019)]*")) || w >= 14;
    }

    private static boolean titleLike(String s) {
        return !sentenceLike(s) && s.length() <= 150 && PageText.words(s) <= 12 && !s.matches("(?s).*[.,;:]");
    }

}
