package io.chainfeed.api.feed;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.chainfeed.api.reads.ReadView;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A JSON Feed 1.1 page ({@code GET /api/v1/feeds/json}), with chainfeed's extension
 * object {@code _chainfeed} on the feed and on every item. Instants are RFC 3339 strings
 * in UTC.
 *
 * @param version {@value JsonFeedWriter#VERSION}
 * @param title the feed's title
 * @param homePageUrl the topic's page on this site
 * @param feedUrl the first page of this feed
 * @param nextUrl the next page; absent on the last
 * @param description what the feed holds
 * @param language {@code en}
 * @param authors chainfeed
 * @param extension the topic, the feed's id and the disclaimer
 * @param items the reads, newest first
 */
public record JsonFeed(String version, String title, @JsonProperty("home_page_url") String homePageUrl,
        @JsonProperty("feed_url") String feedUrl,
        @JsonProperty("next_url") @JsonInclude(JsonInclude.Include.NON_NULL) String nextUrl, String description,
        String language, List<Author> authors, @JsonProperty(JsonFeedWriter.EXTENSION) FeedExtension extension,
        List<Item> items) {

    /**
     * An author.
     *
     * @param name the author's name
     */
    @Schema(name = "JsonFeedAuthor")
    public record Author(String name) {
    }

    /**
     * The feed's extension object.
     *
     * @param about the page that documents the extension
     * @param topic the topic selector, canonical
     * @param id the feed's id
     * @param disclaimer research, not advice
     */
    public record FeedExtension(String about, String topic, String id, String disclaimer) {
    }

    /**
     * A read as a feed item.
     *
     * @param id the entry's id (a tag URI)
     * @param url the read's page or source
     * @param title its title or headline
     * @param summary its summary
     * @param contentText its text
     * @param datePublished a signal's observation instant (RFC 3339, UTC, whole seconds):
     * when the news it reads happened; absent for other reads
     * @param dateModified when chainfeed published this version (UTC, whole seconds)
     * @param tags its layers, companies and terms by label
     * @param extension the read's id, kind, versions, signal, categories, sources and
     * changes
     */
    @Schema(name = "JsonFeedItem")
    public record Item(String id, String url, String title, String summary,
            @JsonProperty("content_text") String contentText,
            @JsonProperty("date_published") @JsonInclude(JsonInclude.Include.NON_NULL) String datePublished,
            @JsonProperty("date_modified") String dateModified, List<String> tags,
            @JsonProperty(JsonFeedWriter.EXTENSION) ItemExtension extension) {
    }

    /**
     * An item's extension object.
     *
     * @param about the page that documents the extension
     * @param readId the read's id
     * @param kind term, signal or state
     * @param version 1, 2, 3 ...
     * @param previousVersion the version before, null for a first version
     * @param observedAt a signal's observation instant (UTC); absent for other reads
     * @param signal a signal read's signal object; absent for other reads
     * @param categories its layers, companies, terms and kind
     * @param sources where it comes from
     * @param disclaimer research, not advice
     * @param changes what changed against the previous version
     */
    public record ItemExtension(String about, String readId, String kind, long version, Long previousVersion,
            @JsonInclude(JsonInclude.Include.NON_NULL) String observedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) ReadView.SignalView signal, List<FeedEntry.Category> categories,
            List<FeedEntry.Source> sources, String disclaimer, List<FeedEntry.Change> changes) {
    }

}
