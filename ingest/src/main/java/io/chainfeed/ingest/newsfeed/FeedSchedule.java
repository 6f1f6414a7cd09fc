package io.chainfeed.ingest.newsfeed;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Polls every configured feed at a fixed interval on one background thread; a feed that
 * fails is logged and tried again at a later round (once its backoff or
 * {@code Retry-After} has passed, see {@link FeedPoller}), the others go on.
 */
public final class FeedSchedule implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FeedSchedule.class);

    private final FeedPoller poller;

    private final List<FeedSource> feeds;

    private final Duration interval;

    private ScheduledExecutorService executor;

    /**
     * @param poller the poller
     * @param feeds the feeds; nothing runs when empty
     * @param interval time between rounds
     */
    public FeedSchedule(FeedPoller poller, List<FeedSource> feeds, Duration interval) {
        this.poller = poller;
        this.feeds = List.copyOf(feeds);
        this.interval = interval;
    }

    @Override
    public void start() {
        if (feeds.isEmpty()) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "feed-poller");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::round, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        log.info("polling {} feeds every {}", feeds.size(), interval);
    }

    private void round() {
        for (FeedSource feed : feeds) {
            try {
                FeedPoller.PollResult r = poller.poll(feed);
                if (r.fetch() == FeedPoller.Fetch.FETCHED) {
                    log.info("feed {}: {} published, {} unchanged, {} dead-lettered", feed.url(), r.published(),
                            r.unchanged(), r.deadLetter());
                }
                else {
                    log.debug("feed {}: {}", feed.url(), r.fetch());
                }
            }
            catch (RuntimeException e) {
                log.warn("feed {} not polled: {}", feed.url(), e.getMessage());
            }
        }
    }

    @Override
    public void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

}
