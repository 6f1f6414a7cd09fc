package io.chainfeed.api.pages;

import io.chainfeed.api.feed.FeedLinks;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.server.CachePolicies;
import io.chainfeed.api.widget.OEmbedDiscovery;
import io.chainfeed.api.widget.WidgetUrls;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import lombok.RequiredArgsConstructor;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The web pages' own URLs. Each page is an HTML file under {@code pages/}, put into the
 * shared {@link PageLayout}, whose small ES module reads the id from the URL and calls
 * the JSON API. This controller serves the page with discovery links added to its
 * {@code <head>}, in the served HTML, where feed readers and oEmbed consumers (which run
 * no script) look for them:
 * <ul>
 * <li>the feeds of the page's topic,
 * {@code <link rel="alternate" type="application/atom+xml">} and
 * {@code type="application/feed+json"} ({@code /} and {@code /chain}: every read;
 * {@code /terms/{slug}}: {@code term:<slug>}; {@code /companies/{symbol}}:
 * {@code company:<symbol>}; {@code /layers/{id}}: {@code layer:<id>}); a path value that
 * is not a valid selector value gets no feed links (the page itself says the item does
 * not exist);</li>
 * <li>({@code /terms}, the glossary index: {@code kind:term}; {@code /companies}, the
 * company index: every read);</li>
 * <li>oEmbed discovery ({@link OEmbedDiscovery}) for the term, company, layer and chain
 * pages.</li>
 * </ul>
 * The links are elements in a jsoup document, whose serializer escapes attribute values.
 */
@Controller
@RequiredArgsConstructor
class PageController {

    private final WidgetUrls urls;

    private final TopicParser topics;

    private final Map<String, Document> templates = new ConcurrentHashMap<>();

    @GetMapping("/")
    ResponseEntity<String> search() {
        return page("index.html", Selector.all(), null);
    }

    @GetMapping("/terms")
    ResponseEntity<String> terms() {
        return page("terms.html", selector("kind:", "term"), null);
    }

    @GetMapping("/companies")
    ResponseEntity<String> companies() {
        return page("companies.html", Selector.all(), null);
    }

    @GetMapping("/terms/{slug}")
    ResponseEntity<String> term(@PathVariable String slug, HttpServletRequest request) {
        return page("term.html", selector("term:", slug), OEmbedDiscovery.link(urls.origin(request),
                "/terms/" + OEmbedDiscovery.segment(slug), "chainfeed term card"));
    }

    @GetMapping("/companies/{symbol}")
    ResponseEntity<String> company(@PathVariable String symbol, HttpServletRequest request) {
        return page("company.html", selector("company:", symbol), OEmbedDiscovery.link(urls.origin(request),
                "/companies/" + OEmbedDiscovery.segment(symbol), "chainfeed company feed"));
    }

    @GetMapping("/layers/{id}")
    ResponseEntity<String> layer(@PathVariable String id, HttpServletRequest request) {
        return page("layer.html", selector("layer:", id), OEmbedDiscovery.link(urls.origin(request),
                "/layers/" + OEmbedDiscovery.segment(id), "chainfeed layer feed"));
    }

    @GetMapping("/chain")
    ResponseEntity<String> chain(HttpServletRequest request) {
        return page("chain.html", Selector.all(),
                OEmbedDiscovery.link(urls.origin(request), "/chain", "chainfeed chain state"));
    }

    /**
     * @return the selector of one field test, or null when the value is not a valid one
     */
    private Selector selector(String field, String value) {
        if (value.isBlank() || !value.chars()
            .allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == ':'))) {
            return null;
        }
        try {
            return topics.parse(field + value);
        }
        catch (BadRequestException e) {
            return null;
        }
    }

    /**
     * @param topic the page's feed topic, or null for no feed links
     * @param oEmbedLink the oEmbed discovery element as {@link OEmbedDiscovery#link}
     * writes it (attribute values escaped there), or null
     */
    private ResponseEntity<String> page(String file, Selector topic, String oEmbedLink) {
        Document doc = templates.computeIfAbsent(file, PageLayout::page).clone();
        if (topic != null) {
            String name = topic.canonical().equals("all") ? "every read" : topic.canonical();
            for (Map.Entry<String, String> link : FeedLinks.discovery(topic).entrySet()) {
                Element l = doc.head().appendElement("link");
                l.attr("rel", "alternate")
                    .attr("type", link.getKey())
                    .attr("href", link.getValue())
                    .attr("title", "chainfeed: " + name
                            + (link.getKey().equals(FeedLinks.ATOM_TYPE) ? " (Atom)" : " (JSON Feed)"));
            }
        }
        if (oEmbedLink != null) {
            doc.head().append(oEmbedLink);
        }
        return ResponseEntity.ok()
            .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
            .cacheControl(CachePolicies.PAGES)
            .body(doc.outerHtml());
    }

}
