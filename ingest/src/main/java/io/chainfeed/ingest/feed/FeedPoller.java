package io.chainfeed.ingest.feed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.SyndFeedInput;
import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalInput;
import io.chainfeed.schemas.Topics;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jsoup.Jsoup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls configured RSS/Atom feeds and turns their items into constraint signals.
 *
 * <p>Each feed is fetched with {@link SafeFetcher} (http(s) only; loopback and private addresses
 * refused unless the setting allows them for local use) and parsed with Rome with DOCTYPE
 * declarations refused, so no entity is ever expanded or fetched. An item becomes a raw signal:
 * title as headline, description or content (as text) as body, link as source URL and the feed's
 * name as source name, published (or updated) date as observed-at. Layers, direction and magnitude
 * come from the item's categories, {@code layer:memory}, {@code direction:tightening},
 * {@code magnitude:4}, else from the feed's configured defaults. The signal id is derived from the
 * feed URL and the item's guid (or link), so a re-poll is the same signal.
 *
 * <p>Valid items are published (once per content per process); an invalid item goes (once) to
 * {@value Topics#SIGNALS_DLQ} as JSON, with the reason in header {@value Topics#DLQ_REASON_HEADER}
 * and the feed URL in {@value Topics#DLQ_ORIGIN_HEADER}; the rest of the feed goes through.
 */
public final class FeedPoller {
    private static final Logger log = LoggerFactory.getLogger(FeedPoller.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SafeFetcher fetcher;
    private final SignalIngest ingest;
    private final Producer<String, byte[]> dlqProducer;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /**
     * @param fetcher     fetches the feeds
     * @param ingest      validates and publishes signals
     * @param dlqProducer writes refused items to the dead-letter topic
     */
    public FeedPoller(SafeFetcher fetcher, SignalIngest ingest, Producer<String, byte[]> dlqProducer) {
        this.fetcher = fetcher;
        this.ingest = ingest;
        this.dlqProducer = dlqProducer;
    }

    /**
     * What one poll of one feed did.
     *
     * @param published  signals published
     * @param unchanged  items already published with the same content
     * @param deadLetter items refused and dead-lettered
     */
    public record PollResult(int published, int unchanged, int deadLetter) {
    }

    /**
     * Fetches, parses and ingests one feed.
     *
     * @param feed the feed and its defaults
     * @return counts
     * @throws FetchException if the feed cannot be fetched (refused address, status, size)
     * @throws IllegalArgumentException if the feed is not RSS/Atom, or declares a DOCTYPE
     */
    public PollResult poll(FeedSource feed) {
        SafeFetcher.Page page = fetcher.fetch(URI.create(feed.url()));
        SyndFeed parsed = parse(page.body(), feed.url());
        String sourceName = feed.name() != null && !feed.name().isBlank() ? feed.name()
                : parsed.getTitle() != null && !parsed.getTitle().isBlank() ? parsed.getTitle().strip() : feed.url();

        List<SignalInput> inputs = new ArrayList<>();
        List<String> hashes = new ArrayList<>();
        int unchanged = 0;
        for (SyndEntry entry : parsed.getEntries()) {
            Map<String, Object> fields = fields(entry, feed, sourceName);
            String hash = sha256(feed.url() + "\n" + fields);
            if (seen.contains(hash)) {
                unchanged++;
                continue;
            }
            inputs.add(new SignalInput(inputs.size(), 0, fields, null));
            hashes.add(hash);
        }
        SignalIngest.BatchResult r = ingest.ingest(inputs, false);
        r.accepted().forEach(a -> seen.add(hashes.get(a.index())));
        Map<Integer, List<SignalError>> byItem = r.rejected().stream()
                .collect(Collectors.groupingBy(SignalError::index, LinkedHashMap::new, Collectors.toList()));
        byItem.forEach((index, errors) -> {
            deadLetter(feed, inputs.get(index), errors);
            seen.add(hashes.get(index)); // dead-lettered once, not again at every poll
        });
        if (!byItem.isEmpty()) {
            log.warn("feed {}: {} items refused and dead-lettered", feed.url(), byItem.size());
        }
        return new PollResult(r.accepted().size(), unchanged, byItem.size());
    }

    /**
     * @param xml  the feed document
     * @param from where it came from, for messages
     * @return the parsed feed
     * @throws IllegalArgumentException if it is not RSS/Atom or declares a DOCTYPE
     */
    static SyndFeed parse(String xml, String from) {
        SyndFeedInput input = new SyndFeedInput();
        input.setAllowDoctypes(false); // the default, said here: no DTD, no entity expansion
        input.setXmlHealerOn(false);
        try {
            return input.build(new StringReader(xml));
        } catch (FeedException | RuntimeException e) {
            throw new IllegalArgumentException("feed " + from + " is not a readable RSS/Atom document: "
                    + e.getMessage(), e);
        }
    }

    private static Map<String, Object> fields(SyndEntry entry, FeedSource feed, String sourceName) {
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
        Map<String, Object> f = new LinkedHashMap<>();
        String key = entry.getUri() != null && !entry.getUri().isBlank() ? entry.getUri() : entry.getLink();
        f.put("id", "feed-" + sha256(feed.url() + "\n" + key).substring(0, 20));
        put(f, "headline", entry.getTitle() == null ? null : entry.getTitle().strip());
        put(f, "body", text(entry));
        if (!layers.isEmpty()) {
            f.put("layers", layers);
        }
        put(f, "direction", direction);
        put(f, "magnitude", magnitude);
        Date date = entry.getPublishedDate() != null ? entry.getPublishedDate() : entry.getUpdatedDate();
        put(f, "observedAt", date == null ? null : date.toInstant().toString());
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("name", sourceName);
        put(source, "url", entry.getLink());
        f.put("source", source);
        return f;
    }

    private static String text(SyndEntry entry) {
        SyndContent d = entry.getDescription();
        String html = d != null && d.getValue() != null ? d.getValue()
                : entry.getContents().stream().map(SyndContent::getValue).filter(v -> v != null)
                .collect(Collectors.joining("\n"));
        String text = Jsoup.parse(html).text().strip();
        return text.length() > 20_000 ? text.substring(0, 20_000) : text;
    }

    private static void put(Map<String, Object> m, String k, Object v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    private void deadLetter(FeedSource feed, SignalInput item, List<SignalError> errors) {
        String reason = errors.stream().map(e -> e.field() + ": " + e.reason()).collect(Collectors.joining("; "));
        byte[] raw;
        try {
            raw = JSON.writeValueAsBytes(item.fields());
        } catch (JsonProcessingException e) {
            raw = String.valueOf(item.fields()).getBytes(StandardCharsets.UTF_8);
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.SIGNALS_DLQ,
                String.valueOf(item.fields().get("id")), raw);
        record.headers().add(new RecordHeader(Topics.DLQ_REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8)));
        record.headers().add(new RecordHeader(Topics.DLQ_ORIGIN_HEADER, feed.url().getBytes(StandardCharsets.UTF_8)));
        try {
            dlqProducer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.error("could not dead-letter an item of {} ({}): {}", feed.url(), reason, e.getMessage());
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
