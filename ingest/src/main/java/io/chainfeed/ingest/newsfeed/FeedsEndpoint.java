package io.chainfeed.ingest.newsfeed;

import java.util.List;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * Actuator endpoint {@code feeds} ({@code GET /actuator/feeds}): the status of every
 * configured feed, in configuration order, as {@link FeedStatus} records.
 */
@Endpoint(id = "feeds")
public final class FeedsEndpoint {

    private final FeedPoller poller;

    private final List<FeedSource> feeds;

    /**
     * @param poller the poller that keeps the status
     * @param feeds the configured feeds
     */
    public FeedsEndpoint(FeedPoller poller, List<FeedSource> feeds) {
        this.poller = poller;
        this.feeds = List.copyOf(feeds);
    }

    /**
     * @return one status per configured feed
     */
    @ReadOperation
    public List<FeedStatus> feeds() {
        return feeds.stream().map(poller::status).toList();
    }

}
