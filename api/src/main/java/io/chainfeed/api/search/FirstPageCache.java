package io.chainfeed.api.search;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

/**
 * First pages of searches, kept for a short time and shared by identical requests
 * (Caffeine): the same text, filters, page size and evidence choice within {@code ttl}
 * get the same page, and identical requests that arrive while one is being answered wait
 * for that one answer instead of each asking Elasticsearch (one search per key at a
 * time).
 *
 * <p>
 * Staleness: a kept page is at most {@code ttl} older than a fresh search would be. The
 * reads index makes new writes searchable once a second ({@code refresh_interval: 1s},
 * infra/platform's reads-index-v1.json), so with a {@code ttl} no longer than that, a
 * cached answer lags the index by at most one more refresh interval. Only first pages are
 * kept: later pages run in a point in time of their own and are never cached. A failed
 * search is not kept. A {@code ttl} of zero turns the cache off (every request searches).
 */
final class FirstPageCache {

    /**
     * Most pages kept at once (each a page of up to 50 reads; they expire after
     * {@code ttl} anyway).
     */
    static final int MAX_PAGES = 100;

    /**
     * What identifies a first page.
     *
     * @param text the query text as given
     * @param filters the filters
     * @param size the page size
     * @param evidence whether tag evidence is shown
     * @param hybrid whether the page fuses the vector ranking
     */
    record Key(String text, ReadSearch.Filters filters, int size, boolean evidence, boolean hybrid) {
    }

    /** A search that may fail on the transport. */
    @FunctionalInterface
    interface Search {

        /**
         * @return the page
         * @throws IOException on a transport failure
         */
        ReadSearch.Page run() throws IOException;

    }

    private final Cache<Key, ReadSearch.Page> pages;

    /**
     * @param ttl how long a page is kept after it was searched; zero: nothing is kept
     * @param ticker the clock of the expiry ({@link Ticker#systemTicker()} outside tests)
     * @throws IllegalArgumentException for a negative {@code ttl}
     */
    FirstPageCache(Duration ttl, Ticker ticker) {
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("chainfeed.api.search.cache-ttl must not be negative: " + ttl);
        }
        this.pages = ttl.isZero() ? null
                : Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(MAX_PAGES).ticker(ticker).build();
    }

    /**
     * @param key the page's key
     * @param search searches when no page for the key is kept (called once per key at a
     * time)
     * @return the kept page, or the one {@code search} returns (then kept for
     * {@code ttl})
     * @throws IOException when the search fails on the transport (nothing is kept)
     */
    ReadSearch.Page get(Key key, Search search) throws IOException {
        if (pages == null) {
            return search.run();
        }
        try {
            return pages.get(key, k -> {
                try {
                    return frozen(search.run());
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The page with unmodifiable lists, since several answers share it. */
    private static ReadSearch.Page frozen(ReadSearch.Page p) {
        return new ReadSearch.Page(p.total(), List.copyOf(p.matches()), p.facets(), p.nextCursor(), p.mode(),
                p.tookMs(), p.sections(), p.withAll());
    }

}
