package io.chainfeed.api.pages;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The frame the web pages share, {@code pages/layout.html} on the class path: the
 * document head (charset, viewport, style sheet), the skip link, the site header with the
 * main navigation, a {@code <main id="main">} that says the page is loading, and the
 * footer with the disclaimer and a sources list that says the same. A page
 * ({@code pages/<name>.html}) holds only what is its own, in this order: <pre>{@code
 * <title>Chain map · chainfeed</title>
 * <script type="module" src="/js/chain.js"></script>
 * <main>...the page's content...</main>
 * <ul id=
"sources"><li>...what the sources list shows until the script fills it...</li></ul>
 * }</pre> {@link #page} puts the page's head elements (title, scripts, links) at the end
 * of the layout's head; the children of the page's {@code <main>} and {@code
 *
<ul id="sources">
 * }, where it has them, replace those of the layout's. A page whose script renders
 * everything (a term, company or layer page) has only its title and script, and keeps the
 * layout's loading notices.
 */
final class PageLayout {

    private static final String DIRECTORY = "/pages/";

    private PageLayout() {
    }

    /**
     * @param name a page file under {@code pages/}, e.g. {@code term.html}
     * @return the whole page: a new document, pretty printing off, UTF-8
     * @throws UncheckedIOException when the layout or the page is missing or unreadable
     */
    static Document page(String name) {
        Document layout = parse(DIRECTORY + "layout.html");
        Document page = parse(DIRECTORY + name);
        layout.head().appendChildren(page.head().childNodesCopy());
        replaceChildren(layout.getElementById("main"), page.body().selectFirst("main"));
        replaceChildren(layout.getElementById("sources"), page.body().getElementById("sources"));
        return layout;
    }

    /**
     * Puts copies of the children of {@code own}, when the page has it, in place of those
     * of {@code frame}.
     */
    private static void replaceChildren(Element frame, Element own) {
        if (own != null) {
            frame.empty().appendChildren(own.childNodesCopy());
        }
    }

    /**
     * @param path an HTML file on the class path, e.g. {@code /pages/chain.html}
     * @return it parsed, pretty printing off, UTF-8
     * @throws UncheckedIOException when it is missing or unreadable
     */
    private static Document parse(String path) {
        try (InputStream in = PageLayout.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing page " + path));
            }
            Document doc = Jsoup.parse(in, StandardCharsets.UTF_8.name(), "");
            doc.outputSettings().prettyPrint(false).charset(StandardCharsets.UTF_8);
            return doc;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
