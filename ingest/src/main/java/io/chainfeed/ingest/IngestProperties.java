package io.chainfeed.ingest;

import io.chainfeed.ingest.newsfeed.FeedSource;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.ingest}.
 *
 * @param loadCorpus publish the corpus (bundled, or {@code corpusDir}) at start
 * @param loadHistory publish the bundled history of constraint signals since 2023 at
 * start (idempotent: see {@link io.chainfeed.chain.history.History})
 * @param corpusDir a corpus directory on disk instead of the bundled one; null for
 * bundled
 * @param maxPageBytes largest page (or signal batch) body accepted over HTTP, in bytes
 * @param editorKeyHashes SHA-256 hashes (hex) of the editor keys that may post signals;
 * never the keys themselves. Empty: signal posting is refused for everyone.
 * @param feeds RSS/Atom feeds to poll for signals ({@code feeds[0].url}, {@code .name},
 * {@code .layers}, {@code .direction}, {@code .magnitude})
 * @param feedInterval time between polls of the feeds
 * @param feedsAllowPrivate allow feeds on loopback or private addresses (local use only)
 * @param deadline how long a publishing request may take before it is answered (2xx once
 * committed, 503 when aborted, 504 when Kafka stalled mid-commit)
 * @param producers transactional producers, i.e. requests publishing at once
 * @param instanceId this instance's name in its producers' {@code transactional.id}
 * ({@code chainfeed-ingest-<instanceId>-<n>}): keep it across restarts, unique among
 * instances running at once. Default: host name and HTTP port.
 * @param holdBelow a signal whose direction or layers were decided from its text with a
 * confidence below this (0-1) is held for review: published and searchable, not counted
 * by the chain model until an editor confirms or corrects it
 * @param reader who decides a signal's missing values from its text: {@code news-reader}
 * (the learned reader with the rules, docs/decisions.md) or {@code rules} (the rules
 * alone)
 */
@ConfigurationProperties("chainfeed.ingest")
public record IngestProperties(boolean loadCorpus, boolean loadHistory, String corpusDir,
        @DefaultValue("1048576") int maxPageBytes, @DefaultValue List<String> editorKeyHashes,
        @DefaultValue List<FeedSource> feeds, @DefaultValue("5m") Duration feedInterval, boolean feedsAllowPrivate,
        @DefaultValue("5s") Duration deadline, @DefaultValue("3") int producers, String instanceId,
        @DefaultValue("0.6") double holdBelow, @DefaultValue("news-reader") String reader) {

    /**
     * @throws IllegalArgumentException when a size, count or duration is not positive,
     * {@code holdBelow} is outside 0-1 or {@code reader} is neither {@code news-reader}
     * nor {@code rules} (the start fails with the property's name)
     */
    public IngestProperties {
        editorKeyHashes = List.copyOf(editorKeyHashes);
        feeds = List.copyOf(feeds);
        require(maxPageBytes > 0, "max-page-bytes", maxPageBytes);
        require(producers > 0, "producers", producers);
        require(positive(feedInterval), "feed-interval", feedInterval);
        require(positive(deadline), "deadline", deadline);
        require(holdBelow >= 0 && holdBelow <= 1, "hold-below", holdBelow);
        require(reader.equals("news-reader") || reader.equals("rules"), "reader",
                reader + " (use news-reader or rules)");
    }

    private static boolean positive(Duration d) {
        return d != null && !d.isNegative() && !d.isZero();
    }

    private static void require(boolean ok, String name, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("chainfeed.ingest." + name + " is not valid: " + value);
        }
    }
}
