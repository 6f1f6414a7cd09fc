package io.chainfeed.api.widget;

import io.chainfeed.api.access.ApiPrincipal;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.server.CachePolicies;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The iframe form of the widgets, for sites that allow no scripts of ours:
 * <ul>
 * <li>{@code GET /embed/term/{slug}}</li>
 * <li>{@code GET /embed/feed?topic=<selector>[&limit=1..20][&live=true]}</li>
 * <li>{@code GET /embed/chain[?limit=]}</li>
 * </ul>
 * each with {@code key} (a publishable partner key, required), {@code theme}
 * ({@code auto} (default), {@code light}, {@code dark}) and {@code locale} (BCP 47, for
 * dates). The page may be framed only by the key's allowed origins
 * ({@code Content-Security-Policy: frame-ancestors}); it posts its height to the parent
 * page, which our script there applies to the iframe. Bad parameters are 400 problems.
 */
@RestController
@RequestMapping("/embed")
@Tag(name = "widget")
@RequiredArgsConstructor
class EmbedController {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    private final PartnerAccess access;

    private final TopicParser topics;

    private final EmbedPageCache pages;

    @Operation(operationId = "embedTerm", summary = "A glossary term card as an iframe page")
    @GetMapping("/term/{slug}")
    ResponseEntity<String> term(@PathVariable String slug, @RequestParam(required = false) String key,
            @RequestParam(defaultValue = "auto") String theme, @RequestParam(required = false) String locale,
            HttpServletRequest request, HttpServletResponse response) {
        ApiPrincipal partner = access.check(key, PartnerAccess.Use.FRAME, request, response);
        if (!WidgetDataController.SLUG.matcher(slug).matches()) {
            throw new NotFoundException("no glossary term '" + slug + "'");
        }
        Map<String, String> attrs = EmbedPages.common(key, theme(theme), locale(locale));
        attrs.put("term", slug);
        return html(partner, "chainfeed-term", "chainfeed: glossary term " + slug, attrs);
    }

    @Operation(operationId = "embedFeed", summary = "A topic feed as an iframe page")
    @GetMapping("/feed")
    ResponseEntity<String> feed(@RequestParam(required = false) String topic,
            @RequestParam(defaultValue = "5") int limit, @RequestParam(defaultValue = "false") boolean live,
            @RequestParam(required = false) String key, @RequestParam(defaultValue = "auto") String theme,
            @RequestParam(required = false) String locale, HttpServletRequest request, HttpServletResponse response) {
        ApiPrincipal partner = access.check(key, PartnerAccess.Use.FRAME, request, response);
        Selector selector = topics.parse(topic);
        Map<String, String> attrs = EmbedPages.common(key, theme(theme), locale(locale));
        attrs.put("topic", selector.canonical());
        attrs.put("limit", Integer.toString(limit(limit)));
        attrs.put("live", live ? "" : null);
        return html(partner, "chainfeed-feed", "chainfeed: feed " + selector.canonical(), attrs);
    }

    @Operation(operationId = "embedChain", summary = "The chain as an iframe page")
    @GetMapping("/chain")
    ResponseEntity<String> chain(@RequestParam(defaultValue = "5") int limit,
            @RequestParam(required = false) String key, @RequestParam(defaultValue = "auto") String theme,
            @RequestParam(required = false) String locale, HttpServletRequest request, HttpServletResponse response) {
        ApiPrincipal partner = access.check(key, PartnerAccess.Use.FRAME, request, response);
        Map<String, String> attrs = EmbedPages.common(key, theme(theme), locale(locale));
        attrs.put("limit", Integer.toString(limit(limit)));
        return html(partner, "chainfeed-chain", "chainfeed: state of the AI supply chain", attrs);
    }

    /**
     * The page from memory ({@link EmbedPageCache}) with its strong ETag; an
     * {@code If-None-Match} that matches it is answered 304 by Spring's
     * {@code HttpEntityMethodProcessor}.
     */
    private ResponseEntity<String> html(ApiPrincipal partner, String element, String title, Map<String, String> attrs) {
        EmbedPageCache.Page page = pages.page(element, title, attrs, partner.allowedOrigins());
        return ResponseEntity.ok()
            .contentType(HTML)
            .eTag(page.etag())
            .cacheControl(CachePolicies.PAGES)
            .header("Content-Security-Policy", page.csp())
            .body(page.html());
    }

    static String theme(String theme) {
        String t = theme.toLowerCase(Locale.ROOT);
        if (!EmbedPages.THEMES.contains(t)) {
            throw new BadRequestException("invalid-parameter", "theme must be auto, light or dark");
        }
        return t;
    }

    static String locale(String locale) {
        if (locale != null && !EmbedPages.LOCALE.matcher(locale).matches()) {
            throw new BadRequestException("invalid-parameter", "locale must be a BCP 47 language tag such as en-GB");
        }
        return locale;
    }

    static int limit(int limit) {
        if (limit < 1 || limit > WidgetDataController.MAX_LIMIT) {
            throw new BadRequestException("invalid-parameter", "limit must be 1 to " + WidgetDataController.MAX_LIMIT);
        }
        return limit;
    }

}
