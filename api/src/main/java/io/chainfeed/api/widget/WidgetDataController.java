package io.chainfeed.api.widget;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.answers.Dependency;
import io.chainfeed.api.answers.SharedAnswers;
import io.chainfeed.api.answers.Tagged;
import io.chainfeed.api.chain.ChainStates;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.feed.FeedQuery;
import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadLog;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.server.CachePolicies;
import io.chainfeed.avro.LayerState;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The data behind the widgets, for pages on a partner's allowed origins (see
 * {@link PartnerAccess}: {@code key} parameter, {@code Origin}, CORS, rate limit):
 * <ul>
 * <li>{@code GET /widget/v1/data/term/{slug}}: a glossary term card; 404 for an unknown
 * term.</li>
 * <li>{@code GET /widget/v1/data/feed?topic=<selector>&limit=1..20}: the newest reads of
 * a topic (selector grammar in {@link Selector}; a bad one is a 400), newest first, with
 * the topic's page and {@code lastEventId}, where the live stream
 * ({@link WidgetStreamController}) should start.</li>
 * <li>{@code GET /widget/v1/data/chain}: the chain's layers, tightest first, with
 * {@code asOf}.</li>
 * </ul>
 * Every answer carries the disclaimer; no cookie is set.
 */
@RestController
@RequestMapping("/widget/v1/data")
@Tag(name = "widget")
@RequiredArgsConstructor
class WidgetDataController {

    static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,79}");
    static final int MAX_LIMIT = 20;

    private final PartnerAccess access;

    private final ReadLookups reads;

    private final ElasticsearchClient es;

    private final ChainStates chain;

    private final ReadLog readLog;

    private final WidgetUrls urls;

    private final TopicParser topics;

    private final SharedAnswers answers;

    private final ObjectMapper mapper;

    @Operation(operationId = "widgetTerm", summary = "A glossary term card for the widget")
    @GetMapping("/term/{slug}")
    ResponseEntity<WidgetData.TermCard> term(@PathVariable String slug, @RequestParam(required = false) String key,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        access.check(key, PartnerAccess.Use.DATA, request, response);
        if (!SLUG.matcher(slug).matches()) {
            throw new NotFoundException("no glossary term '" + slug + "'");
        }
        String origin = urls.origin(request);
        Optional<Tagged<WidgetData.TermCard>> card = answers.get("widget-term", List.of(slug, origin),
                new Dependency.OneRead("term:" + slug),
                () -> reads.get("term:" + slug)
                    .map(doc -> Tagged.of(new WidgetData.TermCard(WidgetViews.read(doc, true),
                            origin + "/terms/" + slug, WidgetViews.DISCLAIMER), mapper)));
        Tagged<WidgetData.TermCard> body = card
            .orElseThrow(() -> new NotFoundException("no glossary term '" + slug + "'"));
        return ResponseEntity.ok()
            .eTag(body.etag())
            .cacheControl(CachePolicies.WIDGET_DATA)
            .varyBy(CachePolicies.WIDGET_DATA_VARY)
            .body(body.body());
    }

    @Operation(operationId = "widgetFeed",
            summary = "The newest reads of a topic for the widget, with where its live stream starts")
    @GetMapping("/feed")
    ResponseEntity<WidgetData.FeedData> feed(@RequestParam(required = false) String topic,
            @RequestParam(defaultValue = "5") int limit, @RequestParam(required = false) String key,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        access.check(key, PartnerAccess.Use.DATA, request, response);
        Selector selector = topics.parse(topic);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new BadRequestException("invalid-parameter", "limit must be 1 to " + MAX_LIMIT);
        }
        String origin = urls.origin(request);
        Tagged<WidgetData.FeedData> body = answers.get("widget-feed", List.of(selector, limit, origin),
                new Dependency.Topic(selector), () -> Tagged.of(newest(selector, limit, origin), mapper));
        return ResponseEntity.ok()
            .eTag(body.etag())
            .cacheControl(CachePolicies.WIDGET_DATA)
            .varyBy(CachePolicies.WIDGET_DATA_VARY)
            .body(body.body());
    }

    /**
     * The newest reads of a topic, from the index.
     */
    private WidgetData.FeedData newest(Selector selector, int limit, String origin) throws IOException {
        // Where the live stream should start: taken before the query, and a page back on
        // every partition, so that a read written just before (and not indexed yet) still
        // arrives; the widget replaces a read it already shows and keeps newest first, so
        // the overlap shows nothing twice. A kept answer keeps its position: the reads of
        // the topic after it are what made no new answer, so the stream replays nothing
        // the widget has to show.
        Optional<LogPosition> end = readLog.end();
        SearchResponse<ReadDocument> r = es.search(s -> s.index(ReadsIndex.ALIAS)
            .query(selector.toQuery())
            .size(limit)
            .sort(o -> o.field(f -> f.field(FeedQuery.PUBLISHED_AT).order(SortOrder.Desc).missing(FieldValue.of(0L))))
            .sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc)))
            .source(src -> src.filter(f -> f.includes(WidgetViews.FIELDS))), ReadDocument.class);
        List<WidgetData.WidgetRead> items = new ArrayList<>();
        for (Hit<ReadDocument> hit : r.hits().hits()) {
            items.add(WidgetViews.read(hit.source(), false));
        }
        return new WidgetData.FeedData(selector.canonical(), WidgetViews.topicPage(origin, selector),
                List.copyOf(items), end.map(p -> back(p, limit).text()).orElse(null), WidgetViews.DISCLAIMER);
    }

    /**
     * @return the position {@code n} records before {@code p} on every partition (not
     * before offset 0)
     */
    static LogPosition back(LogPosition p, int n) {
        Map<Integer, Long> offsets = new TreeMap<>();
        p.offsets().forEach((partition, next) -> offsets.put(partition, Math.max(0, next - n)));
        return LogPosition.of(offsets);
    }

    @Operation(operationId = "widgetChain", summary = "The chain's layers for the widget, tightest first")
    @GetMapping("/chain")
    ResponseEntity<WidgetData.ChainData> chain(@RequestParam(required = false) String key, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        access.check(key, PartnerAccess.Use.DATA, request, response);
        String origin = urls.origin(request);
        Tagged<WidgetData.ChainData> body = answers.get("widget-chain", List.of(chain.version(), origin),
                new Dependency.ChainState(), () -> Tagged.of(chainCard(origin), mapper));
        return ResponseEntity.ok()
            .eTag(body.etag())
            .cacheControl(CachePolicies.WIDGET_DATA)
            .varyBy(CachePolicies.WIDGET_DATA_VARY)
            .body(body.body());
    }

    private WidgetData.ChainData chainCard(String origin) {
        List<LayerState> layers = chain.all(null);
        layers.sort(Comparator.comparingDouble((LayerState s) -> -s.getPressure()).thenComparing(LayerState::getId));
        return new WidgetData.ChainData(
                layers.stream()
                    .map(ChainViews::asOf)
                    .filter(a -> a != null)
                    .max(Comparator.naturalOrder())
                    .orElse(null),
                layers.stream().map(ChainViews::brief).toList(), origin + "/chain", WidgetViews.DISCLAIMER);
    }

}
