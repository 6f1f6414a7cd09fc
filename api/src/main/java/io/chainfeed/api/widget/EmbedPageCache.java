package io.chainfeed.api.widget;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chainfeed.platform.Sha256;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Embed pages built once and kept in memory with their {@code Content-Security-Policy}
 * and strong entity tag (RFC 9110 section 8.8.3), instead of formatting, escaping and
 * hashing the same page for every visitor.
 *
 * <p>
 * An embed page is a shell whose script loads the data (the widget data answers, which
 * {@code io.chainfeed.api.answers.SharedAnswers} keeps and makes stale by the reads log);
 * the page itself depends only on its URL's parameters and the partner key's allowed
 * origins ({@code frame-ancestors}), never on a read. So no event makes an entry stale: a
 * key whose origins change is a new entry (the origins are part of the cache key), and
 * the cache is bounded by {@value #MAX_PAGES} pages (Caffeine's W-TinyLFU evicts the
 * rarely asked). The partner check runs before every lookup ({@link EmbedController}).
 * Meters: Micrometer's cache meters with {@code cache=embed-pages}.
 */
@Component
class EmbedPageCache {

    /** Most pages kept: about 1 KB each, so at most about 10 MB. */
    static final int MAX_PAGES = 10_000;

    /**
     * A built embed page.
     *
     * @param html the whole document
     * @param csp its {@code Content-Security-Policy} header value
     * @param etag its strong entity tag, quoted: the first 16 bytes of the SHA-256 of the
     * UTF-8 document, hex
     */
    record Page(String html, String csp, String etag) {
    }

    private record Key(String element, String title, List<String> attributes, List<String> allowedOrigins) {
    }

    private final Cache<Key, Page> pages;

    @Autowired
    EmbedPageCache(MeterRegistry meters) {
        this(MAX_PAGES, meters);
    }

    EmbedPageCache(int maxPages, MeterRegistry meters) {
        this.pages = Caffeine.newBuilder().maximumSize(maxPages).recordStats().build();
        CaffeineCacheMetrics.monitor(meters, pages, "embed-pages");
    }

    /**
     * @param element the widget element, as for {@link EmbedPages#page}
     * @param title the document title
     * @param attributes the element's attributes in order (null values left out), as for
     * {@link EmbedPages#page}; not kept, so the caller may reuse it
     * @param allowedOrigins the partner key's serialised allowed origins
     * @return the page, shared by every caller with the same arguments
     */
    Page page(String element, String title, Map<String, String> attributes, List<String> allowedOrigins) {
        List<String> flat = new ArrayList<>(2 * attributes.size());
        attributes.forEach((name, value) -> {
            flat.add(name);
            flat.add(value);
        });
        Key key = new Key(element, title, Collections.unmodifiableList(flat), List.copyOf(allowedOrigins));
        return pages.get(key, k -> {
            String html = EmbedPages.page(element, title, attributes);
            return new Page(html, EmbedPages.csp(k.allowedOrigins()), "\"" + Sha256.hexPrefix(html, 16) + "\"");
        });
    }

}
