package io.chainfeed.api.widget;

import io.chainfeed.api.access.ApiKeys;
import io.chainfeed.api.access.ApiPrincipal;
import io.chainfeed.api.access.KeyRateLimits;
import io.chainfeed.api.support.problem.ForbiddenException;
import io.chainfeed.api.support.problem.TooManyRequestsException;
import io.chainfeed.api.support.problem.UnauthorizedException;
import io.chainfeed.api.support.server.RateLimitFields;
import io.chainfeed.avro.ApiKeyKind;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * The gate of every widget path: a publishable partner key, an origin the key allows, and
 * the key's rate limit, in that order.
 *
 * <ul>
 * <li>The key is the {@code key} query parameter ({@code cf_<id>_<secret>}; publishable:
 * it is useless from any other origin and is rate limited). A missing, unknown or revoked
 * key is a 401; a key that is not a PARTNER key a 403.</li>
 * <li>Origin (RFC 6454): the browser's {@code Origin} header must be exactly one of the
 * key's allowed origins (no wildcard). Only then does the answer carry
 * {@code Access-Control-Allow-Origin} with that origin (Fetch standard, CORS protocol),
 * never {@code *} and never credentials. Every answer carries {@code Vary: Origin}. A
 * request from our own embed pages is same-origin: the browser sends
 * {@code Sec-Fetch-Site: same-origin} (Fetch Metadata) and no foreign
 * {@code Origin}.</li>
 * <li>Rate: see {@link KeyRateLimits}; over it, a 429 with {@code Retry-After}. The CORS
 * headers are set first, so an allowed page can read the 429, its {@code Retry-After} and
 * the two rate-limit fields ({@code RateLimit}, {@code RateLimit-Policy}), which are
 * exposed to it.</li>
 * </ul>
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class PartnerAccess {

    /** How a path is reached, which decides what the {@code Origin} must be. */
    public enum Use {

        /**
         * Fetches and event streams from a partner page: an allowed {@code Origin}, or
         * our own pages.
         */
        DATA,
        /**
         * Server-to-server or browser calls: no {@code Origin} is fine, a present one
         * must be allowed.
         */
        OEMBED,
        /**
         * A page loaded into an iframe: no origin check here; {@code frame-ancestors}
         * limits who frames it.
         */
        FRAME

    }

    private final ApiKeys keys;

    private final KeyRateLimits limits;

    private final WidgetUrls urls;

    /**
     * Checks a request and sets the CORS headers it earns.
     * @param token the {@code key} parameter, may be null
     * @param use how the path is reached
     * @param request the request (its {@code Origin} and {@code Sec-Fetch-Site} headers)
     * @param response gets {@code Vary: Origin} always, and the CORS headers for an
     * allowed origin
     * @return the partner key's principal
     * @throws UnauthorizedException (401) without a valid, unrevoked key
     * @throws ForbiddenException (403, type {@code not-a-partner-key} or
     * {@code origin-not-allowed})
     * @throws TooManyRequestsException (429) over the key's rate
     */
    public ApiPrincipal check(String token, Use use, HttpServletRequest request, HttpServletResponse response) {
        response.addHeader(HttpHeaders.VARY, HttpHeaders.ORIGIN);
        if (token == null || token.isBlank()) {
            throw new UnauthorizedException("a publishable partner key is required: add key=cf_... to the request");
        }
        ApiPrincipal partner = keys.authenticate(token)
            .orElseThrow(() -> new UnauthorizedException("the key is unknown or revoked"));
        if (partner.kind() != ApiKeyKind.PARTNER) {
            throw new ForbiddenException("not-a-partner-key",
                    "widgets take a publishable PARTNER key, not a " + partner.kind() + " key");
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (use != Use.FRAME) {
            if (origin == null) {
                if (use == Use.DATA && !fromOurPage(request)) {
                    throw new ForbiddenException("origin-not-allowed",
                            "this path answers pages on the key's allowed origins; the request named no Origin");
                }
            }
            else if (!sameOrigin(origin, request)) {
                if (!partner.allowsOrigin(origin)) {
                    throw new ForbiddenException("origin-not-allowed",
                            "the origin " + origin + " is not on this key's list of allowed origins");
                }
                response.setHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
                response.setHeader(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, HttpHeaders.RETRY_AFTER + ", "
                        + RateLimitFields.RATE_LIMIT + ", " + RateLimitFields.RATE_LIMIT_POLICY);
            }
        }
        limits.take(partner);
        return partner;
    }

    /**
     * Our own embed pages call the data paths same-origin: the browser says so in Fetch
     * Metadata.
     */
    private static boolean fromOurPage(HttpServletRequest request) {
        return "same-origin".equals(request.getHeader("Sec-Fetch-Site"));
    }

    private boolean sameOrigin(String origin, HttpServletRequest request) {
        return ApiKeys.normaliseOrigin(origin).map(o -> o.equals(urls.origin(request))).orElse(false);
    }

}
