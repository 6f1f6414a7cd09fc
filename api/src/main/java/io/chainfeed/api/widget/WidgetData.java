package io.chainfeed.api.widget;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.chainfeed.api.chain.ChainViews;
import java.util.List;

/**
 * The answers of the widget's data endpoints ({@code /widget/v1/data/...}) and of oEmbed.
 * Instants are ISO-8601 strings in UTC.
 */
public final class WidgetData {

    private WidgetData() {
    }

    /**
     * A read as a widget shows it: a card ({@code details}) or a list line.
     *
     * @param id the read's id
     * @param kind {@code term}, {@code signal} or {@code state}
     * @param slug a term's slug
     * @param title title or headline
     * @param summary one paragraph, plain text
     * @param layers its layers, primary first
     * @param companies on a card: its companies, primary subjects first (at most 12);
     * absent on a list line
     * @param sources on a card: its sources; absent on a list line
     * @param updatedAt when this version was written (UTC)
     * @param publishedAt when chainfeed published it (UTC)
     * @param observedAt a signal's observation instant (UTC), null for a term
     * @param version 1, 2, 3 ...
     * @param signal a signal read's short signal object; absent for other reads
     */
    public record WidgetRead(String id, String kind, String slug, String title, String summary,
            List<WidgetLayer> layers, @JsonInclude(JsonInclude.Include.NON_NULL) List<WidgetCompany> companies,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<WidgetSource> sources, String updatedAt, String publishedAt,
            String observedAt, Long version, @JsonInclude(JsonInclude.Include.NON_NULL) WidgetSignal signal) {
    }

    /**
     * A layer tag on a widget read.
     *
     * @param id the layer's id
     * @param name its name
     * @param primary the read is mainly about it
     */
    public record WidgetLayer(String id, String name, Boolean primary) {
    }

    /**
     * A company on a term card.
     *
     * @param name its name
     * @param symbol its canonical symbol
     */
    public record WidgetCompany(String name, String symbol) {
    }

    /**
     * A source on a term card.
     *
     * @param name the publisher
     * @param url the page
     */
    public record WidgetSource(String name, String url) {
    }

    /**
     * The short signal object.
     *
     * @param direction tightening or easing
     * @param magnitude 1-5
     * @param until the horizon (UTC), null when none
     * @param decidedBy text or editor
     * @param confidence 0-1
     * @param held held for review
     */
    public record WidgetSignal(String direction, Integer magnitude, String until, String decidedBy, Double confidence,
            Boolean held) {
    }

    /**
     * {@code GET /widget/v1/data/term/{slug}}: a glossary term card.
     *
     * @param read the term (its members are the answer's)
     * @param url the term's page on this site
     * @param disclaimer research, not advice
     */
    public record TermCard(@JsonUnwrapped WidgetRead read, String url, String disclaimer) {
    }

    /**
     * {@code GET /widget/v1/data/feed}: the newest reads of a topic.
     *
     * @param topic the topic selector, canonical
     * @param url the topic's page on this site
     * @param items the reads, newest first
     * @param lastEventId where the widget's live stream should start; null while the read
     * log is not ready
     * @param disclaimer research, not advice
     */
    public record FeedData(String topic, String url, List<WidgetRead> items, String lastEventId, String disclaimer) {
    }

    /**
     * {@code GET /widget/v1/data/chain}: the chain's layers, tightest first.
     *
     * @param asOf the newest instant of the layers' states (UTC), null before the first
     * signal
     * @param layers every layer's head, highest pressure first
     * @param url the chain's page on this site
     * @param disclaimer research, not advice
     */
    public record ChainData(String asOf, List<ChainViews.LayerBrief> layers, String url, String disclaimer) {
    }

    /**
     * {@code GET /oembed}: an oEmbed 1.0 rich answer.
     *
     * @param type always {@code rich}
     * @param version always {@code 1.0}
     * @param title what the embed shows
     * @param providerName chainfeed
     * @param providerUrl this site
     * @param cacheAge seconds a consumer may cache the answer
     * @param html the iframe to embed
     * @param width the iframe's width in CSS pixels
     * @param height its height in CSS pixels
     * @param disclaimer research, not advice
     */
    public record OEmbed(String type, String version, String title, @JsonProperty("provider_name") String providerName,
            @JsonProperty("provider_url") String providerUrl, @JsonProperty("cache_age") int cacheAge, String html,
            int width, int height, String disclaimer) {
    }

}
