package io.chainfeed.api.pages;

import io.chainfeed.api.widget.OEmbedDiscovery;
import io.chainfeed.api.widget.WidgetUrls;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The web pages' own URLs. Each page is a static HTML file (under {@code static/}) whose small ES module
 * reads the id from the URL and calls the JSON API. The term, layer, company and chain pages are served
 * with an oEmbed discovery {@code <link>} for their own URL added to the head (in the served HTML, where
 * oEmbed consumers look for it). The search page is {@code /} ({@code static/index.html}, Spring Boot's
 * welcome page).
 */
@Controller
class PageController {
    private final WidgetUrls urls;
    private final Map<String, String> files = new ConcurrentHashMap<>();

    PageController(WidgetUrls urls) {
        this.urls = urls;
    }

    @GetMapping("/terms/{slug}")
    ResponseEntity<String> term(@PathVariable String slug, HttpServletRequest request) {
        return withDiscovery("term.html", request, "/terms/" + OEmbedDiscovery.segment(slug), "chainfeed term card");
    }

    @GetMapping("/companies/{symbol}")
    ResponseEntity<String> company(@PathVariable String symbol, HttpServletRequest request) {
        return withDiscovery("company.html", request, "/companies/" + OEmbedDiscovery.segment(symbol),
                "chainfeed company feed");
    }

    @GetMapping("/layers/{id}")
    ResponseEntity<String> layer(@PathVariable String id, HttpServletRequest request) {
        return withDiscovery("layer.html", request, "/layers/" + OEmbedDiscovery.segment(id), "chainfeed layer feed");
    }

    @GetMapping("/chain")
    ResponseEntity<String> chain(HttpServletRequest request) {
        return withDiscovery("chain.html", request, "/chain", "chainfeed chain state");
    }

    private ResponseEntity<String> withDiscovery(String file, HttpServletRequest request, String path, String title) {
        String html = files.computeIfAbsent(file, PageController::read);
        String link = OEmbedDiscovery.link(urls.origin(request), path, title);
        return ResponseEntity.ok().contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .cacheControl(CacheControl.noCache())
                .body(html.replaceFirst("</head>", java.util.regex.Matcher.quoteReplacement(link + "\n</head>")));
    }

    private static String read(String file) {
        try (InputStream in = new ClassPathResource("static/" + file).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
