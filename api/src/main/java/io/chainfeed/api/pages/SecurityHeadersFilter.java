package io.chainfeed.api.pages;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A strict Content-Security-Policy on everything the api serves except the Swagger UI
 * (which is springdoc's, not ours): scripts, styles, images and API calls from this
 * origin only, no inline script or style, no plugins, no framing. Pages insert data as
 * text; the only markup they build from data is {@code <mark>} in highlights, parsed
 * element by element. The widgets' embed pages ({@code /embed/...}) get their own policy
 * from {@code io.chainfeed.api.widget.EmbedController}.
 */
@Component
class SecurityHeadersFilter extends OncePerRequestFilter {

    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI();
        if (!path.startsWith("/swagger-ui") && !path.startsWith("/v3/api-docs")) {
            // The iframe form of the widgets sets its own policy: framed only by the
            // partner key's origins.
            if (!path.startsWith("/embed/")) {
                response.setHeader("Content-Security-Policy", CSP);
                response.setHeader("X-Frame-Options", "DENY");
            }
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
        }
        chain.doFilter(request, response);
    }

}
