package io.chainfeed.api.pages;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * The frame the web pages share, {@code pages/layout.html} on the class path: the document head (charset,
 * viewport, style sheet), the skip link, the site header with the main navigation, an empty
 * {@code <main id="main">} and the footer with the disclaimer and an empty sources list. A page
 * ({@code pages/<name>.html}) holds only what is its own, in this order:
 * <pre>{@code
 * <title>Glossary term · chainfeed</title>
 * <script type="module" src="/js/term.js"></script>
 * <main>...the page's content...</main>
 * <ul id="sources"><li>...what the sources list shows until the script fills it...</li></ul>
 * }</pre>
 * {@link #page} puts the page's head elements (title, scripts, links) at the end of the layout's head, the
 * children of its {@code <main>} into the layout's {@code <main>}, and the children of its
 * {@code <ul id="sources">} into the footer's list.
 */
final class PageLayout {
    private static final String DIRECTORY = "/pages/";

    private PageLayout() {
    }

    /**
     * @param name a page file under {@code pages/}, e.g. {@code term.html}
     * @return the whole page: a new document, pretty printing off, UTF-8
     * @throws UncheckedIOException when the layout or the page is missing or unreadable
     * @throws IllegalStateException when the page has no {@code <main>}
     */
    static Document page(String name) {
        Document layout = parse(DIRECTORY + "layout.html");
        Document page = parse(DIRECTORY + name);
        Element content = page.body().selectFirst("main");
        if (content == null) {
            throw new IllegalStateException("page " + DIRECTORY + name + " has no <main>");
        }
        layout.head().appendChildren(page.head().childNodesCopy());
        layout.getElementById("main").appendChildren(content.childNodesCopy());
        Element sources = page.body().getElementById("sources");
        if (sources != null) {
            layout.getElementById("sources").appendChildren(sources.childNodesCopy());
        }
        return layout;
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
