package io.chainfeed.api.feed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.answers.Dependency;
import io.chainfeed.api.answers.SharedAnswers;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.server.CachePolicies;
import io.chainfeed.platform.Sha256;
import io.chainfeed.schemas.ReadDocument;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/feeds/atom} (Atom 1.0, RFC 4287) and {@code GET /api/v1/feeds/json}
 * (JSON Feed 1.1): the reads of a topic, newest {@code publishedAt} first (when chainfeed
 * published the read's current version; see docs/feeds.md), a page at a time.
 *
 * <p>
 * Conditional GET (RFC 9110 section 13): every answer carries a strong {@code ETag} (a
 * hash of the exact bytes) and {@code Last-Modified} (the newest entry's
 * {@code updated}); a request whose {@code If-None-Match} matches, or without one, whose
 * {@code If-Modified-Since} is not older, gets {@code 304 Not Modified} with no body.
 * {@code Cache-Control} lets shared caches keep a feed 30 s
 * ({@link CachePolicies#FEEDS}).
 *
 * <p>
 * A bad {@code topic} or {@code cursor} is a 400 problem detail.
 */
@RestController
@RequestMapping("/api/v1/feeds")
@Validated
@Tag(name = "feeds", description = "Atom and JSON Feed per topic")
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class SyndicationController {

    /** Entries per page unless {@code size} says otherwise. */
    public static final int DEFAULT_SIZE = 20;

    /** Most entries per page. */
    public static final int MAX_SIZE = 100;

    private static final String TOPIC_HELP = "selector: all, layer:<id>, company:<symbol>, term:<slug>, "
            + "kind:<term|signal|state>, combined with AND, OR, NOT and parentheses";

    private final FeedQuery query;

    private final FeedLinks links;

    private final ObjectMapper mapper;

    private final TopicParser topics;

    private final SharedAnswers answers;

    @GetMapping("/atom")
    @Operation(summary = "Atom feed of a topic",
            description = """
                    Atom 1.0 (RFC 4287), newest publication first (entry `updated` is when chainfeed published the read's version; \
                    a signal's observation time is `cf:observedAt`). Entry ids are tag: URIs that stay the same across \
                    versions of a read; `updated` is UTC. Categories carry a scheme (tag:...:layer, :company, :term, \
                    :kind), a term (layer id, listing symbol, term slug) and a label. Every entry has the disclaimer \
                    and its sources (related links and cf:source elements), and an updated entry says what changed \
                    (at the top of its content and as cf:change elements, namespace https://chainfeed.io/ns/feed/1). \
                    Paging per RFC 5005: rel=self, first and next links; next carries a cursor. ETag and \
                    Last-Modified for conditional GET.""")
    @ApiResponse(responseCode = "200", description = "an Atom 1.0 feed page",
            content = @Content(mediaType = FeedLinks.ATOM_TYPE,
                    schema = @Schema(type = "string", maxLength = 50_000_000, description = "Atom 1.0 XML")),
            headers = {
                    @Header(name = "ETag", description = "the page's entity tag, for If-None-Match",
                            schema = @Schema(type = "string", maxLength = 100)),
                    @Header(name = "Last-Modified", description = "the newest entry's publication (HTTP date)",
                            schema = @Schema(type = "string", maxLength = 40)) })
    ResponseEntity<byte[]> atom(@Parameter(description = TOPIC_HELP) @RequestParam String topic,
            @RequestParam(defaultValue = "" + DEFAULT_SIZE) @Min(1) @Max(MAX_SIZE) int size,
            @Parameter(description = "from the feed's next link") @RequestParam(required = false) @Size(
                    max = FeedCursor.MAX_LENGTH) String cursor,
            HttpServletRequest request) throws IOException {
        return answer(page(FeedLinks.ATOM_PATH, topic, size, cursor, request, AtomFeedWriter::write),
                FeedLinks.ATOM_TYPE);
    }

    @GetMapping("/json")
    @Operation(summary = "JSON Feed of a topic", description = """
            JSON Feed 1.1, newest publication first (`date_modified`; a signal's observation time is \
            `_chainfeed.observedAt`); the same entries, ids and paging as the Atom feed \
            (next_url carries a cursor). What JSON Feed has no field for is in the `_chainfeed` extension \
            object: on the feed `topic`, `id` and `disclaimer`; on each item `readId`, `kind`, `version`, \
            `previousVersion`, `categories` (type, scheme, term, label), `sources` (name, url), \
            `disclaimer` and `changes` (field, change, key, detail, text: what changed against \
            previousVersion). ETag and Last-Modified for conditional GET.""")
    @ApiResponse(responseCode = "200", description = "a JSON Feed 1.1 page",
            content = @Content(mediaType = FeedLinks.JSON_FEED_TYPE, schema = @Schema(implementation = JsonFeed.class)),
            headers = {
                    @Header(name = "ETag", description = "the page's entity tag, for If-None-Match",
                            schema = @Schema(type = "string", maxLength = 100)),
                    @Header(name = "Last-Modified", description = "the newest entry's publication (HTTP date)",
                            schema = @Schema(type = "string", maxLength = 40)) })
    ResponseEntity<byte[]> json(@Parameter(description = TOPIC_HELP) @RequestParam String topic,
            @RequestParam(defaultValue = "" + DEFAULT_SIZE) @Min(1) @Max(MAX_SIZE) int size,
            @Parameter(description = "from the feed's next_url") @RequestParam(required = false) @Size(
                    max = FeedCursor.MAX_LENGTH) String cursor,
            HttpServletRequest request) throws IOException {
        String describedBy = links.base(request) + "/v3/api-docs";
        return answer(page(FeedLinks.JSON_PATH, topic, size, cursor, request,
                doc -> JsonFeedWriter.write(doc, describedBy, mapper)), FeedLinks.JSON_FEED_TYPE);
    }

    /** Writes a feed document in one format. */
    @FunctionalInterface
    private interface Writer {

        byte[] write(FeedDocument doc) throws IOException;

    }

    /**
     * A written page with its validators. A first page (no cursor) is the same for every
     * reader of the topic until a read of it changes: it is kept in memory
     * ({@link SharedAnswers}); a later page is built for each request.
     */
    private record Page(byte[] body, String etag, Instant updated) {
    }

    private Page page(String path, String topic, int size, String cursorText, HttpServletRequest request, Writer writer)
            throws IOException {
        Selector selector = topics.parse(topic);
        FeedCursor cursor = cursorText == null ? null : FeedCursor.decode(cursorText);
        String base = links.base(request);
        SharedAnswers.Builder<Page> build = () -> {
            FeedDocument doc = document(path, selector, size, cursor, base);
            byte[] body = writer.write(doc);
            return new Page(body, etag(body), doc.updated());
        };
        if (cursor != null) {
            return build.build();
        }
        return answers.get(path, List.of(selector, size, base), new Dependency.Topic(selector), build);
    }

    private FeedDocument document(String path, Selector selector, int size, FeedCursor cursor, String base)
            throws IOException {
        FeedQuery.Page page = query.page(selector, cursor, size);
        List<FeedEntry> entries = new ArrayList<>();
        for (ReadDocument doc : page.docs()) {
            entries.add(FeedEntry.of(doc, links, base));
        }
        Instant updated = entries.stream().map(FeedEntry::updated).max(Comparator.naturalOrder()).orElse(Instant.EPOCH);
        String canonical = XmlChars.clean(selector.canonical());
        return new FeedDocument(links.feedId(selector), "chainfeed: " + canonical,
                "Reads on the AI supply chain matching " + canonical + ", newest first. " + FeedDocument.DISCLAIMER,
                canonical, updated, links.feedUrl(base, path, selector, size, cursor),
                links.feedUrl(base, path, selector, size, null),
                page.next() == null ? null : links.feedUrl(base, path, selector, size, page.next()),
                base + FeedLinks.pagePath(selector), entries);
    }

    /**
     * The body with its validators; Spring answers 304 itself when the request's
     * conditions match them (HttpEntityMethodProcessor: If-None-Match first, else
     * If-Modified-Since).
     */
    private static ResponseEntity<byte[]> answer(Page page, String type) {
        return ResponseEntity.ok()
            .contentType(new MediaType(MediaType.parseMediaType(type), StandardCharsets.UTF_8))
            .eTag(page.etag())
            .lastModified(page.updated())
            .cacheControl(CachePolicies.FEEDS)
            .body(page.body());
    }

    /**
     * @return a strong entity tag: the first 16 bytes of the body's SHA-256, hex, quoted
     */
    static String etag(byte[] body) {
        return "\"" + Sha256.hexPrefix(body, 16) + "\"";
    }

}
