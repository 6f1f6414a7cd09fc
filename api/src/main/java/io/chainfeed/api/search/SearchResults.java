package io.chainfeed.api.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.reads.ReadView;
import io.swagger.v3.oas.annotations.media.DiscriminatorMapping;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/search}: a page of reads matching the text. Instants are ISO-8601
 * strings in UTC.
 *
 * @param query the query as sent
 * @param total how many reads match
 * @param mode {@code all} (every required piece matched) or {@code any} (reads with
 * some): {@link SearchMode#text}
 * @param notice in mode {@code any}: what the fall-back did, in a sentence; absent
 * otherwise
 * @param withAll in mode {@code any}: how many reads have every word (they come first);
 * absent otherwise
 * @param top on a first page, the term, layer or company the query names; absent
 * otherwise
 * @param sections on a first page with matches, the answer's sections; absent otherwise
 * @param results this page's reads, best first
 * @param facets per facet (layer, company, term, kind) its values with counts
 * @param nextCursor pass back as {@code cursor} for the next page; null on the last
 * @param tookMs milliseconds the search took
 */
public record SearchResults(String query, long total, String mode,
        @JsonInclude(JsonInclude.Include.NON_NULL) String notice,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long withAll,
        @JsonInclude(JsonInclude.Include.NON_NULL) TopResults.Entity top,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<AnswerSection> sections, List<Result> results,
        Map<String, List<ReadSearch.FacetValue>> facets, String nextCursor, long tookMs) {

    /**
     * A read found, with why it matched.
     *
     * @param read the read, without tag evidence unless asked for (its members are the
     * result's)
     * @param score relevance score
     * @param snippets HTML-escaped fragments with {@code <mark>} around matches, best
     * first
     * @param bestSection the key of the section that matched best, null when none
     * @param alsoFrom other sources of the same story (at most 5); absent without reposts
     * @param repostCount how many other reads tell the story; absent without reposts
     */
    @Schema(name = "SearchResult")
    public record Result(@JsonUnwrapped ReadView read, double score, List<String> snippets, String bestSection,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<AlsoFrom> alsoFrom,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long repostCount) {
    }

    /**
     * Another read of a result's story.
     *
     * @param id its read id
     * @param name its first source's name
     * @param url its first source's URL
     * @param observedAt when it was observed (UTC)
     */
    public record AlsoFrom(String id, String name, String url, String observedAt) {
    }

    /**
     * A section of the answer.
     *
     * @param kind {@code term}, {@code layer} or {@code signal}
     * @param title the section's heading
     * @param items its items, of the kind the section names
     */
    public record AnswerSection(String kind, String title, List<? extends SectionItem> items) {
    }

    /** An item of an answer section; {@code kind} says which. */
    @Schema(oneOf = { TermItem.class, LayerItem.class, SignalItem.class }, discriminatorProperty = "kind",
            discriminatorMapping = { @DiscriminatorMapping(value = "term", schema = TermItem.class),
                    @DiscriminatorMapping(value = "layer", schema = LayerItem.class),
                    @DiscriminatorMapping(value = "signal", schema = SignalItem.class) })
    public sealed interface SectionItem permits TermItem, LayerItem, SignalItem {

        /**
         * @return {@code term}, {@code layer} or {@code signal}: the section's kind
         */
        String kind();

    }

    /**
     * A term read that explains the query.
     *
     * @param kind {@code term}
     * @param id the read's id
     * @param title the term's title
     * @param summary its summary
     * @param url its page on this site
     */
    public record TermItem(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = "term") String kind,
            String id, String title, String summary, String url) implements SectionItem {

        /**
         * @param id the read's id
         * @param title the term's title
         * @param summary its summary
         * @param url its page on this site
         */
        public TermItem(String id, String title, String summary, String url) {
            this("term", id, title, summary, url);
        }

    }

    /**
     * A layer's status now.
     *
     * @param kind {@code layer}
     * @param layer the layer's state (its members are the item's)
     * @param url its page on this site
     */
    public record LayerItem(@Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = "layer") String kind,
            @JsonUnwrapped ChainViews.LayerBrief layer, String url) implements SectionItem {

        /**
         * @param layer the layer's state
         * @param url its page on this site
         */
        public LayerItem(ChainViews.LayerBrief layer, String url) {
            this("layer", layer, url);
        }

    }

    /**
     * One of the newest signals.
     *
     * @param kind {@code signal}
     * @param id the read's id
     * @param title the headline
     * @param observedAt when it was observed (UTC)
     * @param direction tightening or easing; absent for a read without a signal object
     * @param magnitude 1-5; absent for a read without a signal object
     * @param source its first source, null when none
     */
    public record SignalItem(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = "signal") String kind, String id,
            String title, String observedAt, @JsonInclude(JsonInclude.Include.NON_NULL) String direction,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer magnitude,
            ReadView.Source source) implements SectionItem {

        /**
         * @param id the read's id
         * @param title the headline
         * @param observedAt when it was observed (UTC)
         * @param direction tightening or easing, null for a read without a signal object
         * @param magnitude 1-5, null for a read without a signal object
         * @param source its first source, null when none
         */
        public SignalItem(String id, String title, String observedAt, String direction, Integer magnitude,
                ReadView.Source source) {
            this("signal", id, title, observedAt, direction, magnitude, source);
        }

    }

}
