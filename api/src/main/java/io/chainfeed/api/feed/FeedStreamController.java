package io.chainfeed.api.feed;

import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadPayloads;
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
 * {@code GET /api/v1/feeds/stream?topic=<selector>}: new reads of a topic as Server-Sent
 * Events.
 *
 * <p>
 * Events: {@code ready} (once, data {@code {}}: the stream is set up; its id is the
 * starting position), {@code read} (data: the read's JSON, {@link ReadPayloads#view}) and
 * {@code deleted} (data: {@code {"id": ...}}). Every id is a {@link LogPosition}; a
 * client that reconnects with it in {@code Last-Event-ID} (or the {@code lastEventId}
 * query parameter, for clients that cannot set headers; the header wins) gets exactly the
 * events it missed, also after an API restart or from another instance. Without an id the
 * stream starts at the newest read. A bad {@code topic} or id is a 400 problem detail
 * ({@code invalid-selector}, {@code invalid-event-id}) before the stream starts.
 */
@RestController
@Tag(name = "feeds")
@RequiredArgsConstructor
class FeedStreamController {

    private final SseStreams streams;

    @Operation(operationId = "streamFeed",
            summary = "New reads of a topic as Server-Sent Events, resumable with Last-Event-ID")
    @GetMapping("/api/v1/feeds/stream")
    void stream(@RequestParam(name = "topic", defaultValue = "all") String topic,
            @RequestParam(name = "lastEventId", required = false) String lastEventIdParam,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventIdHeader,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        streams.open(request, response, topic, lastEventIdHeader, lastEventIdParam);
    }

}
