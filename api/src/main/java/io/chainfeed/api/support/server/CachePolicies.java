package io.chainfeed.api.support.server;

import java.time.Duration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.filter.ShallowEtagHeaderFilter;

/**
 * How long shared caches (a CDN or a caching proxy in front of the api) may keep the
 * public answers, and their validators (RFC 9111 {@code s-maxage}; RFC 5861
 * {@code stale-while-revalidate}; RFC 9110 entity tags and {@code 304 Not Modified}).
 *
 * <p>
 * The site's pages get a strong {@code ETag} from Spring's
 * {@link ShallowEtagHeaderFilter} (a hash of the exact body; {@code If-None-Match} that
 * matches it is answered 304 with no body). Widget data and embed pages are kept in
 * memory with a strong tag computed once ({@code io.chainfeed.api.answers.Tagged},
 * {@code widget.EmbedPageCache}), so they are neither buffered nor hashed per request;
 * Spring answers their matching {@code If-None-Match} with a 304 too. The feeds compute
 * their own entity tag and {@code Last-Modified} ({@code SyndicationController}).
 * Server-sent event streams are never buffered or cached.
 *
 * <p>
 * Partner keys behind a shared cache: widget data answers depend on the request's
 * {@code Origin} and {@code Sec-Fetch-Site} (the partner key's allowed origins, CORS), so
 * they carry {@code Vary: Origin, Sec-Fetch-Site} and a cache keys them by those headers
 * too; a refusal (401, 403) carries no caching headers. An embed page is the same for
 * every requester of its URL (the key is in the URL), and what keeps other sites from
 * framing it is its {@code Content-Security-Policy: frame-ancestors}, which the cache
 * stores and the browser enforces with every copy.
 */
@Configuration(proxyBeanMethods = false)
public class CachePolicies {

    /**
     * Widget data: 30 s for browsers and shared caches, then served stale for up to 60 s
     * while revalidated.
     */
    public static final CacheControl WIDGET_DATA = CacheControl.maxAge(Duration.ofSeconds(30))
        .cachePublic()
        .sMaxAge(Duration.ofSeconds(30))
        .staleWhileRevalidate(Duration.ofSeconds(60));

    /**
     * Embed pages and the site's pages: browsers revalidate, shared caches keep them 60 s
     * (stale 300 s).
     */
    public static final CacheControl PAGES = CacheControl.maxAge(Duration.ZERO)
        .cachePublic()
        .sMaxAge(Duration.ofSeconds(60))
        .staleWhileRevalidate(Duration.ofSeconds(300));

    /**
     * Atom and JSON Feed: browsers revalidate, shared caches keep them 30 s (stale 60 s).
     */
    public static final CacheControl FEEDS = CacheControl.maxAge(Duration.ZERO)
        .cachePublic()
        .sMaxAge(Duration.ofSeconds(30))
        .staleWhileRevalidate(Duration.ofSeconds(60));

    /** What widget data answers vary on besides the URL. */
    public static final String WIDGET_DATA_VARY = "Origin, Sec-Fetch-Site";

    /**
     * @return a strong-ETag filter over the site's pages (not the SSE streams, which must
     * not be buffered, nor the answers that carry their own tag)
     */
    @Bean
    FilterRegistrationBean<ShallowEtagHeaderFilter> entityTags() {
        FilterRegistrationBean<ShallowEtagHeaderFilter> bean = new FilterRegistrationBean<>(
                new ShallowEtagHeaderFilter());
        bean.addUrlPatterns("/terms", "/terms/*", "/companies", "/companies/*", "/layers/*", "/chain");
        bean.setName("entityTags");
        return bean;
    }

}
