package io.chainfeed.ingest.newsfeed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.fetch.HttpStatusException;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalInput;
import io.chainfeed.platform.Sha256;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls configured RSS/Atom feeds and turns their items into constraint signals, reading
 * them the way feed readers do (the rules in full: {@code docs/feeds-ingest.md}).
 *
 * <p>
 * Fetching: {@link SafeFetcher#fetchFeed} (http(s) only; loopback and private addresses
 * refused unless allowed for local use), as a conditional GET with the last answer's
 * {@code ETag} and {@code Last-Modified}, so an unchanged feed costs a 304 and nothing
 * else. A permanent redirect (301/308) is remembered: later polls go to the new URL. A
 * failure (429 and 503 included) holds the feed back with exponential backoff
 * ({@link FeedState}), and at least as long as the server's {@code Retry-After}; a poll
 * while held back sends nothing.
 *
 * <p>
 * Reading: {@link NewsFeedDocument} (formats, encodings, DOCTYPEs read with no external
 * entity or DTD loaded), {@link NewsFeedLinks} (link choice and {@code xml:base}),
 * {@link FeedDates} (the observed-at fallback chain, recorded on the signal as
 * {@code observedAtBasis}; an item with no date of its own keeps the fallback it got
 * first, the feed's date or the instant it was first seen), {@link FeedText} (plain text
 * through jsoup). An item becomes a raw signal: title as headline, description or content
 * as body, link as source URL, the feed's configured name (else its title) as source
 * name. Layers, direction and magnitude come from the item's categories,
 * {@code layer:memory}, {@code direction:tightening}, {@code magnitude:4}, else from the
 * feed's configured defaults, else they are decided from the item's title and description
 * ({@link io.chainfeed.ingest.decide.SignalDecider}); an item decided not to be about a
 * supply constraint is skipped (to {@value Topics#SIGNALS_SKIPPED}, once). The signal id
 * is derived from the feed URL and the item's guid/id (or link), so a re-poll is the same
 * signal.
 *
 * <p>
 * Valid items are published (once per content per process); an invalid or unreadable item
 * goes (once) to {@value Topics#SIGNALS_DLQ} as JSON, with the reason in header
 * {@value Topics#DLQ_REASON_HEADER} and the feed URL in
 * {@value Topics#DLQ_ORIGIN_HEADER}; the rest of the feed goes through. Validators are
 * kept only after the items were acknowledged, so a feed whose items could not be
 * published is fetched in full again.
 *
 * <p>
 * Metrics: counter {@code chainfeed.feed.fetches} (tags {@code feed}, {@code outcome}:
 * fetched, not-modified, throttled, failed, deferred) and {@code chainfeed.feed.items}
 * (tags {@code feed}, {@code outcome}: published, unchanged, dead-lettered).
 */
public final class FeedPoller {

    private static final Logger log = LoggerFactory.getLogger(FeedPoller.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SafeFetcher fetcher;

    private final SignalIngest ingest;

    private final Producer<String, byte[]> dlqProducer;

    private final Clock clock;

    private final MeterRegistry meters;

    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    private final Map<String, FeedState> states = new ConcurrentHashMap<>();

    /**
     * @param fetcher fetches the feeds
     * @param ingest validates and publishes signals
     * @param dlqProducer writes refused items to the dead-letter topic
     * @param clock for first-seen dates, backoff and status times
     * @param meters where the counters go
     */
    public FeedPoller(SafeFetcher fetcher, SignalIngest ingest, Producer<String, byte[]> dlqProducer, Clock clock,
            MeterRegistry meters) {
        this.fetcher = fetcher;
        this.ingest = ingest;
        this.dlqProducer = dlqProducer;
        this.clock = clock;
        this.meters = meters;
    }

    /** How a poll went at the HTTP level. */
    public enum Fetch {

        /** the document was fetched and read */
        FETCHED,
        /** the server answered 304 Not Modified: nothing to read */
        NOT_MODIFIED,
        /** held back by Retry-After or backoff: no request sent */
        DEFERRED

    }

    /**
     * What one poll of one feed did.
     *
     * @param fetch how the fetch went
     * @param published signals published
     * @param unchanged items already published (or dead-lettered) with the same content
     * @param deadLetter items refused and dead-lettered
     * @param skipped items skipped as not about a supply constraint (decided from their
     * text)
     */
    public record PollResult(Fetch fetch, int published, int unchanged, int deadLetter, int skipped) {
        /** A poll that skipped nothing. */
        public PollResult(Fetch fetch, int published, int unchanged, int deadLetter) {
            this(fetch, published, unchanged, deadLetter, 0);
        }
    }

    /**
     * Fetches (conditionally), parses and ingests one feed, unless it is held back.
     * @param feed the feed and its defaults
     * @return counts
     * @throws FetchException if the feed cannot be fetched (refused address, status,
     * size); an {@link HttpStatusException} for a status, the feed then held back
     * @throws IllegalArgumentException if the document is not readable RSS/Atom
     * @throws io.chainfeed.ingest.publish.PublishException if Kafka did not acknowledge a
     * signal
     */
    public PollResult poll(FeedSource feed) {
        FeedState state = states.computeIfAbsent(feed.url(), FeedState::new);
        Instant now = clock.instant();
        if (!state.due(now)) {
            fetchCounter(feed, "deferred").increment();
            return new PollResult(Fetch.DEFERRED, 0, 0, 0);
        }
        FeedState.Request request = state.fetching(now);
        SafeFetcher.FeedResponse response;
        try {
            response = fetcher.fetchFeed(request.uri(), request.etag(), request.lastModified());
        }
        catch (HttpStatusException e) {
            String outcome = e.throttled() ? "throttled" : "failed";
            Instant until = state.failed(now, outcome, e.getMessage(), e.throttled() ? e.retryAfter() : null);
            fetchCounter(feed, outcome).increment();
            log.warn("feed {}: {}; next request not before {}", feed.url(), e.getMessage(), until);
            throw e;
        }
        catch (RuntimeException e) {
            state.failed(now, "failed", e.getMessage(), null);
            fetchCounter(feed, "failed").increment();
            throw e;
        }
        if (response.permanentUri() != null && !response.permanentUri().equals(request.uri())) {
            log.info("feed {} moved permanently to {}; polling it there from now on", request.uri(),
                    response.permanentUri());
            state.moved(response.permanentUri());
        }
        if (response.notModified()) {
            state.succeeded(now, "not-modified", response.etag(), response.lastModified());
            fetchCounter(feed, "not-modified").increment();
            return new PollResult(Fetch.NOT_MODIFIED, 0, 0, 0);
        }
        PollResult result;
        try {
            result = read(feed, state, NewsFeedDocument.parse(response.body(), response.contentType(), response.uri()),
                    now);
        }
        catch (IllegalArgumentException e) {
            String message = "feed " + response.uri() + " is " + e.getMessage();
            state.failed(now, "failed", message, null);
            fetchCounter(feed, "failed").increment();
            throw new IllegalArgumentException(message, e);
        }
        catch (RuntimeException e) {
            state.failed(now, "failed", e.getMessage(), null);
            fetchCounter(feed, "failed").increment();
            throw e;
        }
        state.succeeded(now, "fetched", response.etag(), response.lastModified());
        fetchCounter(feed, "fetched").increment();
        return result;
    }

    /**
     * @param feed a configured feed
     * @return what the poller knows of it (a blank status before its first poll)
     */
    public FeedStatus status(FeedSource feed) {
        FeedState s = states.get(feed.url());
        return (s != null ? s : new FeedState(feed.url())).status();
    }

    private PollResult read(FeedSource feed, FeedState state, NewsFeedDocument doc, Instant now) {
        SyndFeed parsed = doc.feed();
        String title = FeedText.plain(parsed.getTitle(),
                doc.atom() && parsed.getTitleEx() != null ? parsed.getTitleEx().getType() : "html");
        String sourceName = feed.name() != null && !feed.name().isBlank() ? feed.name()
                : title != null && !title.isBlank() ? title : feed.url();
        FeedDates.Dated feedDate = FeedDates.feed(doc.feedElement());

        List<SignalInput> inputs = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int unchanged = 0;
        for (NewsFeedDocument.Item item : doc.items()) {
            SignalInput input;
            String hash;
            try {
                Map<String, Object> fields = fields(item, doc.atom(), feed, sourceName, state, feedDate, now);
                ids.add(String.valueOf(fields.get("id")));
                input = new SignalInput(inputs.size(), 0, fields, null);
                hash = Sha256.hex(feed.url() + "\n" + fields);
            }
            catch (RuntimeException e) {
                // one item the poller cannot make sense of goes to the dead-letter topic,
                // not the whole feed
                String what = item.entry().getUri() != null ? item.entry().getUri() : item.entry().getTitle();
                Map<String, Object> known = new LinkedHashMap<>();
                known.put("id", id(feed, String.valueOf(what)));
                put(known, "title", item.entry().getTitle());
                input = new SignalInput(inputs.size(), 0, known, "item unreadable: " + e);
                hash = Sha256.hex(feed.url() + "\nunreadable\n" + what + "\n" + e);
            }
            if (seen.contains(hash)) {
                unchanged++;
                continue;
            }
            inputs.add(input);
            hashes.add(hash);
        }
        state.keepFallbacks(ids);
        List<SignalInput> readable = inputs.stream().filter(i -> i.unreadable() == null).toList();
        SignalIngest.BatchResult r = ingest.ingest(readable, false);
        // accepted and rejected name each input by its own index, its position in
        // `inputs`
        r.accepted().forEach(a -> seen.add(hashes.get(a.index())));
        // skipped once, not again at every poll
        r.skipped().forEach(k -> seen.add(hashes.get(k.index())));
        int held = (int) r.accepted()
            .stream()
            .filter(a -> a.signal().getDecision() != null && a.signal().getDecision().getHeld())
            .count();
        Map<Integer, List<SignalError>> byItem = new TreeMap<>();
        r.rejected().forEach(e -> byItem.computeIfAbsent(e.index(), k -> new ArrayList<>()).add(e));
        inputs.stream()
            .filter(i -> i.unreadable() != null)
            .forEach(i -> byItem.put(i.index(), List.of(new SignalError(i.index(), 0, "item", i.unreadable()))));
        byItem.forEach((index, errors) -> {
            deadLetter(feed, inputs.get(index), errors);
            seen.add(hashes.get(index)); // dead-lettered once, not again at every poll
        });
        if (!byItem.isEmpty()) {
            log.warn("feed {}: {} items refused and dead-lettered", feed.url(), byItem.size());
        }
        state.counted(r.accepted().size(), byItem.size(), r.skipped().size(), held);
        itemCounter(feed, "published").increment(r.accepted().size());
        itemCounter(feed, "skipped").increment(r.skipped().size());
        itemCounter(feed, "held").increment(held);
        itemCounter(feed, "unchanged").increment(unchanged);
        itemCounter(feed, "dead-lettered").increment(byItem.size());
        return new PollResult(Fetch.FETCHED, r.accepted().size(), unchanged, byItem.size(), r.skipped().size());
    }

    private static Map<String, Object> fields(NewsFeedDocument.Item item, boolean atom, FeedSource feed,
            String sourceName, FeedState state, FeedDates.Dated feedDate, Instant now) {
        SyndEntry entry = item.entry();
        List<String> layers = new ArrayList<>();
        String direction = feed.direction();
        String magnitude = feed.magnitude() == null ? null : String.valueOf(feed.magnitude());
        for (SyndCategory c : entry.getCategories()) {
            String name = c.getName() == null ? "" : c.getName().strip();
            int colon = name.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = name.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = name.substring(colon + 1).strip();
            switch (key) {
                case "layer" -> layers.add(value);
                case "direction" -> direction = value;
                case "magnitude" -> magnitude = value;
                default -> {
                }
            }
        }
        if (layers.isEmpty()) {
            layers.addAll(feed.layers());
        }
        String link = NewsFeedLinks.link(item.element(), atom);
        String headline = FeedText.headline(entry, atom);
        String key = entry.getUri() != null && !entry.getUri().isBlank() ? entry.getUri()
                : entry.getLink() != null ? entry.getLink() : link != null ? link : headline;
        String id = id(feed, key);

        FeedDates.Dated own = FeedDates.item(item.element());
        FeedState.Fallback date = own != null ? new FeedState.Fallback(own.at(), own.basis())
                : state.fallback(id, feedDate != null ? new FeedState.Fallback(feedDate.at(), feedDate.basis())
                        : new FeedState.Fallback(now, ObservedAtBasis.FIRST_SEEN));

        Map<String, Object> f = new LinkedHashMap<>();
        f.put("id", id);
        put(f, "headline", headline);
        put(f, "body", FeedText.body(entry, atom));
        if (!layers.isEmpty()) {
            f.put("layers", layers);
        }
        put(f, "direction", direction);
        put(f, "magnitude", magnitude);
        f.put("observedAt", date.at().toString());
        f.put("observedAtBasis", date.basis().name());
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("name", sourceName);
        put(source, "url", link);
        f.put("source", source);
        return f;
    }

    private static String id(FeedSource feed, String key) {
        return "feed-" + Sha256.hex(feed.url() + "\n" + key).substring(0, 20);
    }

    private static void put(Map<String, Object> m, String k, Object v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    private Counter fetchCounter(FeedSource feed, String outcome) {
        return counter("chainfeed.feed.fetches", "feed requests, by outcome", feed, outcome);
    }

    private Counter itemCounter(FeedSource feed, String outcome) {
        return counter("chainfeed.feed.items", "feed items read, by outcome", feed, outcome);
    }

    private Counter counter(String name, String description, FeedSource feed, String outcome) {
        return Counter.builder(name)
            .description(description)
            .tags("feed", feed.url(), "outcome", outcome)
            .register(meters);
    }

    private void deadLetter(FeedSource feed, SignalInput item, List<SignalError> errors) {
        String reason = errors.stream().map(e -> e.field() + ": " + e.reason()).collect(Collectors.joining("; "));
        byte[] raw;
        try {
            raw = JSON.writeValueAsBytes(item.fields());
        }
        catch (JsonProcessingException e) {
            raw = String.valueOf(item.fields()).getBytes(StandardCharsets.UTF_8);
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.SIGNALS_DLQ,
                String.valueOf(item.fields().get("id")), raw);
        record.headers().add(new RecordHeader(Topics.DLQ_REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8)));
        record.headers().add(new RecordHeader(Topics.DLQ_ORIGIN_HEADER, feed.url().getBytes(StandardCharsets.UTF_8)));
        try {
            dlqProducer.send(record).get(30, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (ExecutionException | TimeoutException e) {
            log.error("could not dead-letter an item of {} ({}): {}", feed.url(), reason, e.getMessage());
        }
    }

}
