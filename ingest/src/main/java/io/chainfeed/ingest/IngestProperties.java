package io.chainfeed.ingest;

import io.chainfeed.ingest.newsfeed.FeedSource;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code chainfeed.ingest}.
 *
 * @param loadCorpus publish the corpus (bundled, or {@code corpusDir}) at start
 * @param loadHistory publish the bundled history of constraint signals since 2023 at
 * start (idempotent: see {@link io.chainfeed.ingest.corpus.History})
 * @param corpusDir a corpus directory on disk instead of the bundled one; null for
 * bundled
 * @param maxPageBytes largest page (or signal batch) body accepted over HTTP, in bytes
 * @param editorKeyHashes SHA-256 hashes (hex) of the editor keys that may post signals;
 * never the keys themselves. Empty: signal posting is refused for everyone.
 * @param feeds RSS/Atom feeds to poll for signals ({@code feeds[0].url}, {@code .name},
 * {@code .layers}, {@code .direction}, {@code .magnitude})
 * @param feedInterval time between polls of the feeds (default 5 minutes)
 * @param feedsAllowPrivate allow feeds on loopback or private addresses (local use only)
 * @param deadline how long a publishing request may take before it is answered (default 5
 * s): 2xx once committed, 503 when aborted, 504 when Kafka stalled mid-commit
 * @param producers transactional producers, i.e. requests publishing at once (default 3)
 * @param instanceId this instance's name in its producers' {@code transactional.id}
 * ({@code chainfeed-ingest-<instanceId>-<n>}): keep it across restarts, unique among
 * instances running at once. Default: host name and HTTP port.
 * @param holdBelow a signal whose direction or layers were decided from its text with a
 * confidence below this (0-1, default 0.6) is held for review: published and searchable,
 * not counted by the chain model until an editor confirms or corrects it
 * @param reader who decides a signal's missing values from its text: {@code news-reader}
 * (default: the learned reader with the rules, docs/decisions.md) or {@code rules} (the
 * rules alone)
 */
@ConfigurationProperties("chainfeed.ingest")
public record IngestProperties(boolean loadCorpus, boolean loadHistory, String corpusDir, int maxPageBytes,
        List<String> editorKeyHashes, List<FeedSource> feeds, Duration feedInterval, boolean feedsAllowPrivate,
        Duration deadline, int producers, String instanceId, Double holdBelow, String reader) {
    public IngestProperties {
        maxPageBytes = maxPageBytes <= 0 ? 1 << 20 : maxPageBytes;
        editorKeyHashes = editorKeyHashes == null ? List.of() : List.copyOf(editorKeyHashes);
        feeds = feeds == null ? List.of() : List.copyOf(feeds);
        feedInterval = feedInterval == null || feedInterval.isNegative() || feedInterval.isZero()
                ? Duration.ofMinutes(5) : feedInterval;
        deadline = deadline == null || deadline.isNegative() || deadline.isZero() ? Duration.ofSeconds(5) : deadline;
        producers = producers <= 0 ? 3 : producers;
        holdBelow = holdBelow == null || holdBelow < 0 || holdBelow > 1 ? 0.6 : holdBelow;
        reader = reader == null || reader.isBlank() ? "news-reader" : reader;
        if (!reader.equals("news-reader") && !reader.equals("rules")) {
            throw new IllegalArgumentException("chainfeed.ingest.reader is '" + reader + "': use news-reader or rules");
        }
    }
}
