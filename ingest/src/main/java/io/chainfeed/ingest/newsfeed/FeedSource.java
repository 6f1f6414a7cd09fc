package io.chainfeed.ingest.newsfeed;

import java.util.List;

/**
 * One configured news feed ({@code chainfeed.ingest.feeds[n].*}).
 *
 * @param url the RSS/Atom feed URL (http or https)
 * @param name source name for its signals; null for the feed's own title
 * @param layers layer hints for items that name none in their categories
 * @param direction {@code tightening} or {@code easing} for items that name none; null
 * for none
 * @param magnitude 1-5 for items that name none; null for none
 */
public record FeedSource(String url, String name, List<String> layers, String direction, Integer magnitude) {
    public FeedSource {
        layers = layers == null ? List.of() : List.copyOf(layers);
    }
}
