package io.chainfeed.api.widget;

import io.chainfeed.api.access.ApiKeys;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Our own site's origin, as widgets, embed pages and oEmbed answers link to it: the
 * setting {@code chainfeed.widget.public-url} (e.g. {@code https://chainfeed.example},
 * for an API behind a proxy) when given, else the origin the request was addressed to
 * (scheme, {@code Host} header).
 */
@Component
public class WidgetUrls {

    private final String configured;

    WidgetUrls(WidgetProperties props) {
        String publicUrl = props.publicUrl();
        this.configured = publicUrl == null || publicUrl.isBlank() ? null
                : ApiKeys.normaliseOrigin(publicUrl.replaceAll("/+$", ""))
                    .orElseThrow(() -> new IllegalArgumentException(
                            "chainfeed.widget.public-url must be an http(s) origin such as https://chainfeed.example"));
    }

    /**
     * @param request the current request
     * @return our origin, RFC 6454 serialisation ({@code http://localhost:8080}), no
     * trailing slash
     */
    public String origin(HttpServletRequest request) {
        if (configured != null) {
            return configured;
        }
        String raw = ServletUriComponentsBuilder.fromContextPath(request)
            .replacePath(null)
            .replaceQuery(null)
            .build()
            .toUriString();
        return ApiKeys.normaliseOrigin(raw).orElse(raw);
    }

    /**
     * @return the text percent-encoded for a URL query value or path segment (UTF-8,
     * space as %20)
     */
    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

}
