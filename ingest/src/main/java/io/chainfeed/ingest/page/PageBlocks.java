package io.chainfeed.ingest.page;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Turns a page, scraped text or HTML, into the one block structure the parser reads: an
 * ordered list of blocks, each a list of cleaned lines.
 */
final class PageBlocks {

    /** What kind of block it was; scraped text only gives {@link Kind#LINE}. */
    enum Kind {

        /** One line of scraped text: its role is unknown. */
        LINE,
        /** A paragraph-like HTML block (p, div, section ...). */
        PARAGRAPH,
        /** An HTML list: one line per list item. */
        LIST,
        /** An HTML h1. */
        TITLE,
        /** An HTML h2 to h6. */
        HEADING

    }

    /**
     * One block.
     *
     * @param kind its kind
     * @param lines cleaned, non-empty lines (may hold {@link PageText#MARK})
     */
    record Block(Kind kind, List<String> lines) {
        Block {
            lines = List.copyOf(lines);
        }

        /** The lines as a reader sees them, joined with a newline. */
        String plainText() {
            return PageText.plain(String.join("\n", lines));
        }
    }

    private static final Set<String> DROPPED = Set.of("script", "style", "noscript", "template", "svg", "math",
            "iframe", "object", "embed", "canvas", "nav", "footer", "aside", "form", "button", "select", "textarea",
            "dialog", "head");

    private static final Set<String> BLOCK_TAGS = Set.of("address", "article", "blockquote", "body", "center", "dd",
            "details", "div", "dl", "dt", "fieldset", "figcaption", "figure", "header", "hgroup", "hr", "html",
            "legend", "main", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "td", "th",
            "caption");

    private PageBlocks() {
    }

    /** Every non-blank line of scraped text is a block of its own. */
    static List<Block> fromText(String text) {
        List<Block> blocks = new ArrayList<>();
        for (String raw : text.split("\r\n|\r|\n|\u2028|\u2029", -1)) {
            String line = PageText.cleanLine(raw.replace(PageText.MARK, ' '));
            if (!line.isEmpty()) {
                blocks.add(new Block(Kind.LINE, List.of(line)));
            }
        }
        return blocks;
    }

    /**
     * Parses HTML with jsoup (in memory: nothing is fetched, no external entity is
     * resolved) and walks the body without recursion. Navigation, footers, scripts,
     * styles and forms are dropped, and so is any header that does not hold the h1. Each
     * block element gives a block, each list item a line of its list; adjacent inline
     * elements whose texts touch are separated by {@link PageText#MARK}.
     */
    static List<Block> fromHtml(String html) {
        Document doc = Jsoup.parse(html);
        doc.select(String.join(",", DROPPED)).remove();
        doc.select("[hidden], [aria-hidden=true]").remove();
        for (Element header : doc.select("header")) {
            if (header.selectFirst("h1") == null) {
                header.remove();
            }
        }
        Walker walker = new Walker();
        if (doc.body() != null) {
            NodeTraversor.traverse(walker, doc.body());
        }
        walker.flush();
        return walker.blocks;
    }

    private static final class Walker implements NodeVisitor {

        final List<Block> blocks = new ArrayList<>();

        private final StringBuilder line = new StringBuilder();

        private final List<String> lines = new ArrayList<>();

        private Kind kind = Kind.PARAGRAPH;

        private int listDepth;

        private int itemDepth;

        @Override
        public void head(Node node, int depth) {
            if (node instanceof TextNode text) {
                line.append(text.getWholeText());
                return;
            }
            if (!(node instanceof Element element)) {
                return;
            }
            String tag = element.normalName().toLowerCase(Locale.ROOT);
            if (tag.equals("br")) {
                if (itemDepth > 0) {
                    line.append(' ');
                }
                else {
                    endLine();
                }
            }
            else if (itemDepth > 0) {
                line.append(PageText.MARK);
                if (tag.equals("li")) {
                    itemDepth++;
                }
            }
            else if (tag.equals("li")) {
                endLine();
                itemDepth++;
            }
            else if (tag.equals("ul") || tag.equals("ol")) {
                if (listDepth == 0) {
                    flush();
                    kind = Kind.LIST;
                }
                else {
                    endLine();
                }
                listDepth++;
            }
            else if (tag.matches("h[1-6]")) {
                flush();
                kind = tag.equals("h1") ? Kind.TITLE : Kind.HEADING;
            }
            else if (BLOCK_TAGS.contains(tag)) {
                endBlock();
            }
            else {
                line.append(PageText.MARK);
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (!(node instanceof Element element)) {
                return;
            }
            String tag = element.normalName().toLowerCase(Locale.ROOT);
            if (tag.equals("br")) {
                return;
            }
            if (tag.equals("li") && itemDepth == 1) {
                endLine();
                itemDepth = 0;
            }
            else if (itemDepth > 0) {
                line.append(PageText.MARK);
                if (tag.equals("li")) {
                    itemDepth--;
                }
            }
            else if (tag.equals("ul") || tag.equals("ol")) {
                listDepth = Math.max(0, listDepth - 1);
                if (listDepth == 0) {
                    flush();
                }
                else {
                    endLine();
                }
            }
            else if (tag.matches("h[1-6]")) {
                flush();
            }
            else if (BLOCK_TAGS.contains(tag)) {
                endBlock();
            }
            else {
                line.append(PageText.MARK);
            }
        }

        /**
         * A block element's edge: inside a list it only ends the item's line, elsewhere
         * the block.
         */
        private void endBlock() {
            if (listDepth > 0) {
                endLine();
            }
            else {
                flush();
            }
        }

        private void endLine() {
            String cleaned = PageText.cleanLine(line.toString());
            line.setLength(0);
            if (!cleaned.isEmpty()) {
                lines.add(cleaned);
            }
        }

        void flush() {
            endLine();
            if (!lines.isEmpty()) {
                blocks.add(new Block(kind, lines));
                lines.clear();
            }
            kind = Kind.PARAGRAPH;
        }

    }

}
