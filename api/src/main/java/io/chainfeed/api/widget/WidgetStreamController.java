package io.chainfeed.api.widget;

import io.chainfeed.api.feed.SseStreams;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /widget/v1/data/stream?topic=<selector>&key=<partner key>[&lastEventId=
 * <id>]}: the live feed widget's Server-Sent Events, for pages on the key's allowed
 * origins ({@link PartnerAccess}: CORS, rate limit, one request per connection). The
 * stream is the feeds' own ({@code /api/v1/feeds/stream}: events {@code ready},
 * {@code read}, {@code deleted}; ids are log positions; {@code Last-Event-ID} or
 * {@code lastEventId} resumes exactly). Errors before the stream starts are problem
 * details (400 for a bad topic or id, 401/403/429 from the access check).
 */
@RestController
@Tag(name = "widget")
@RequiredArgsConstructor
class WidgetStreamController {

    private final PartnerAccess access;

    private final SseStreams streams;

    @Operation(operationId = "widgetStream", summary = "New reads of a topic for the widget, as Server-Sent Events")
    @GetMapping("/widget/v1/data/stream")
    void stream(@RequestParam(required = false) String topic, @RequestParam(required = false) String key,
            @RequestParam(name = "lastEventId", required = false) String lastEventIdParam,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventIdHeader,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        access.check(key, PartnerAccess.Use.DATA, request, response);
        streams.open(request, response, topic, lastEventIdHeader, lastEventIdParam);
    }

}
