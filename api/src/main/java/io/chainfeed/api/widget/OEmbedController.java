package io.chainfeed.api.widget;

import io.chainfeed.api.access.ApiKeys;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.platform.web.ProblemDetailsHandler;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * oEmbed provider (oEmbed 1.0, https://oembed.com):
 * {@code GET /oembed?url=<page>&maxwidth=&maxheight=&format=json} answers a {@code rich}
 * embed whose {@code html} is the iframe form of a widget.
 *
 * <p>
 * Pages it embeds (on our own origin): {@code /terms/{slug}} (a term card),
 * {@code /layers/{id}} and {@code /companies/{symbol}} (the feed of that layer or
 * company), {@code /chain} (the chain's state). {@code width} and {@code height} are the
 * widget's defaults, clamped to {@code maxwidth} / {@code maxheight}. Provider
 * parameters: {@code key} (a publishable partner key, required: the iframe may only be
 * framed by the key's origins), {@code theme}, {@code locale}.
 *
 * <p>
 * Errors as the spec names them: 404 for a URL that is not one of our embeddable pages or
 * names nothing we know, 501 for any {@code format} but {@code json}, 401 without a valid
 * partner key; a malformed {@code maxwidth}/{@code maxheight} is a 400. Bodies are RFC
 * 9457 problem details.
 */
@RestController
@Tag(name = "widget")
@RequiredArgsConstructor
class OEmbedController {

    private static final Pattern TERM = Pattern.compile("/terms/([^/]+)");

    private static final Pattern LAYER = Pattern.compile("/layers/([^/]+)");

    private static final Pattern COMPANY = Pattern.compile("/companies/([^/]+)");

    private static final Pattern LAYER_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,79}");

    /** What an embeddable page shows, with the iframe's default size in CSS pixels. */
    record Embed(String path, String title, int width, int height) {
    }

    private final PartnerAccess access;

    private final ReadLookups reads;

    private final ReferenceLayers layers;

    private final WidgetUrls urls;

    private final TopicParser topics;

    /** oEmbed's own status for an unsupported format. */
    static final class FormatNotImplemented extends RuntimeException {

        FormatNotImplemented(String format) {
            super("format '" + format + "' is not offered; this provider answers json only");
        }

    }

    @ExceptionHandler(FormatNotImplemented.class)
    ResponseEntity<org.springframework.http.ProblemDetail> notImplemented(FormatNotImplemented e) {
        return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED)
            .contentType(MediaType.APPLICATION_PROBLEM_JSON)
            .body(ProblemDetailsHandler.problem(HttpStatus.NOT_IMPLEMENTED, "unsupported-format",
                    "Format not implemented", e.getMessage()));
    }

    @Operation(operationId = "oembed", summary = "oEmbed 1.0 of an embeddable chainfeed page")
    @GetMapping(value = "/oembed", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<WidgetData.OEmbed> oembed(@RequestParam(required = false) String url,
            @RequestParam(required = false) String maxwidth, @RequestParam(required = false) String maxheight,
            @RequestParam(defaultValue = "json") String format, @RequestParam(required = false) String key,
            @RequestParam(defaultValue = "auto") String theme, @RequestParam(required = false) String locale,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"json".equals(format)) {
            throw new FormatNotImplemented(format);
        }
        Integer maxW = dimension("maxwidth", maxwidth);
        Integer maxH = dimension("maxheight", maxheight);
        access.check(key, PartnerAccess.Use.OEMBED, request, response);
        String origin = urls.origin(request);
        Embed embed = resolve(origin, url).orElseThrow(() -> new NotFoundException("not an embeddable chainfeed page: "
                + url + " (embeddable: " + origin + "/terms/{slug}, /layers/{id}, " + "/companies/{symbol}, /chain)"));
        int width = maxW == null ? embed.width() : Math.min(embed.width(), maxW);
        int height = maxH == null ? embed.height() : Math.min(embed.height(), maxH);
        String src = origin + embed.path() + (embed.path().contains("?") ? "&" : "?") + "key=" + WidgetUrls.encode(key)
                + "&theme=" + EmbedController.theme(theme)
                + (locale == null ? "" : "&locale=" + WidgetUrls.encode(EmbedController.locale(locale)));
        WidgetData.OEmbed body = new WidgetData.OEmbed("rich", "1.0", embed.title(), "chainfeed", origin + "/", 3600,
                "<iframe src=\"" + HtmlUtils.htmlEscape(src) + "\" width=\"" + width + "\" height=\"" + height
                        + "\" title=\"" + HtmlUtils.htmlEscape(embed.title())
                        + "\" frameborder=\"0\" loading=\"lazy\"></iframe>",
                width, height, WidgetViews.DISCLAIMER);
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(Duration.ofHours(1))).body(body);
    }

    /**
     * @param origin our origin
     * @param url the page URL the consumer asks about
     * @return what the page embeds, if it is one of our embeddable pages and names
     * something we know
     */
    Optional<Embed> resolve(String origin, String url) throws IOException {
        Optional<String> path = ourPath(origin, url);
        if (path.isEmpty()) {
            return Optional.empty();
        }
        String p = path.get();
        if (p.equals("/chain")) {
            return Optional.of(new Embed("/embed/chain", "chainfeed: state of the AI supply chain", 480, 420));
        }
        Matcher m = TERM.matcher(p);
        if (m.matches() && WidgetDataController.SLUG.matcher(m.group(1)).matches()) {
            String slug = m.group(1);
            return reads.get("term:" + slug)
                .map(doc -> new Embed("/embed/term/" + slug, "chainfeed: " + doc.title(), 480, 360));
        }
        m = LAYER.matcher(p);
        if (m.matches() && LAYER_ID.matcher(m.group(1)).matches()) {
            Optional<ChainLayer> layer = layers.layer(m.group(1));
            return layer.map(l -> new Embed("/embed/feed?topic=" + WidgetUrls.encode("layer:" + l.getId()),
                    "chainfeed: " + l.getName(), 480, 520));
        }
        m = COMPANY.matcher(p);
        if (m.matches()) {
            Selector selector;
            try {
                selector = topics.parse("company:" + m.group(1));
            }
            catch (BadRequestException e) {
                return Optional.empty();
            }
            Optional<Company> company = topics.companies().find(m.group(1));
            if (company.isEmpty() || reads.latestForCompany(company.get().getId(), 1).isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Embed("/embed/feed?topic=" + WidgetUrls.encode(selector.canonical()),
                    "chainfeed: " + m.group(1), 480, 520));
        }
        return Optional.empty();
    }

    /** The decoded path of a URL on our origin (query and fragment ignored), or empty. */
    static Optional<String> ourPath(String origin, String url) {
        if (url == null || url.length() > 2000) {
            return Optional.empty();
        }
        try {
            URI u = new URI(url.strip());
            String o = ApiKeys.normaliseOrigin(u.getScheme() + "://" + u.getRawAuthority()).orElse(null);
            if (!origin.equals(o) || u.getPath() == null) {
                return Optional.empty();
            }
            String path = u.getPath();
            return Optional.of(path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
        }
        catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static Integer dimension(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n > 0) {
                return n;
            }
        }
        catch (NumberFormatException e) {
            // fall through to the problem below
        }
        throw new BadRequestException("invalid-parameter", name + " must be a positive whole number of pixels");
    }

}
