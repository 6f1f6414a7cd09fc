package io.chainfeed.api.support.es;

import io.github.resilience4j.bulkhead.Bulkhead;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The classes of work that call Elasticsearch, each behind a bulkhead of its own, so that
 * a flood of one class makes that class wait (and past its wait, answer 503
 * {@code busy}), never another: searches do not hold up the widget's or the feeds' calls.
 *
 * <p>
 * A request's class comes from its path ({@link #of}) and is set for the thread that
 * serves it by {@link Filter}; work on the api's own threads (the shared answers' index
 * checks, the catalog's reload) is {@link Lane#BACKGROUND}. Limits:
 * {@link LaneProperties}.
 */
public final class EsLanes implements Supplier<Bulkhead> {

    /** A class of work. */
    public enum Lane {

        /** {@code /api/v1/search}, {@code /api/v1/suggest} and the site's search page */
        SEARCH,
        /**
         * everything else the public reads: the widget's data, term cards, the chain,
         * layers, companies, reads by id, the site's pages
         */
        PUBLIC,
        /** Atom and JSON Feed pages ({@code /api/v1/feeds/**}) */
        FEEDS,
        /** the api's own threads */
        BACKGROUND;

        /**
         * @return the lane's name in meters and logs, e.g. {@code search}
         */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

    }

    private static final ThreadLocal<Lane> CURRENT = new ThreadLocal<>();

    private final Map<Lane, Bulkhead> bulkheads;

    /**
     * @param bulkheads one bulkhead for every lane
     * @throws IllegalArgumentException when a lane has none
     */
    public EsLanes(Map<Lane, Bulkhead> bulkheads) {
        this.bulkheads = new EnumMap<>(bulkheads);
        for (Lane lane : Lane.values()) {
            if (!this.bulkheads.containsKey(lane)) {
                throw new IllegalArgumentException("no bulkhead for the " + lane.id() + " lane");
            }
        }
    }

    /**
     * @return the bulkhead of the calling thread's lane ({@link Lane#BACKGROUND} when
     * none is set)
     */
    @Override
    public Bulkhead get() {
        return bulkheads.get(current());
    }

    /**
     * @param lane a lane
     * @return its bulkhead
     */
    public Bulkhead bulkhead(Lane lane) {
        return bulkheads.get(lane);
    }

    /**
     * @return the calling thread's lane, {@link Lane#BACKGROUND} when none is set
     */
    public static Lane current() {
        Lane lane = CURRENT.get();
        return lane == null ? Lane.BACKGROUND : lane;
    }

    /**
     * @param path a request's path, without the query
     * @return its lane
     */
    public static Lane of(String path) {
        if (path.startsWith("/api/v1/search") || path.startsWith("/api/v1/suggest") || path.equals("/search")) {
            return Lane.SEARCH;
        }
        if (path.startsWith("/api/v1/feeds/")) {
            return Lane.FEEDS;
        }
        return Lane.PUBLIC;
    }

    /** Sets the lane of the thread that serves a request, from the request's path. */
    public static final class Filter extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            Lane before = CURRENT.get();
            CURRENT.set(of(request.getRequestURI()));
            try {
                chain.doFilter(request, response);
            }
            finally {
                if (before == null) {
                    CURRENT.remove();
                }
                else {
                    CURRENT.set(before);
                }
            }
        }

    }

}
