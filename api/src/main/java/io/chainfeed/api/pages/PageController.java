package io.chainfeed.api.pages;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The web pages' own URLs. Each page is a static HTML file (under {@code static/}) whose small ES module
 * reads the id from the URL and calls the JSON API; this controller only maps the URLs to the files.
 * The search page is {@code /} ({@code static/index.html}, Spring Boot's welcome page).
 */
@Controller
class PageController {
    @GetMapping("/terms/{slug}")
    String term(@PathVariable String slug) {
        return "forward:/term.html";
    }

    @GetMapping("/companies/{symbol}")
    String company(@PathVariable String symbol) {
        return "forward:/company.html";
    }

    @GetMapping("/layers/{id}")
    String layer(@PathVariable String id) {
        return "forward:/layer.html";
    }

    @GetMapping("/chain")
    String chain() {
        return "forward:/chain.html";
    }
}
