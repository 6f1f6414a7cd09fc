package io.chainfeed.ingest.web;

import io.chainfeed.ingest.IngestProperties;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.TermJson;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.platform.IndexingProbe;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /ingest/v1/pages}: a glossary page in ({@code text/plain} or
 * {@code text/html}, UTF-8), the parsed term out as JSON. With {@code dryRun=true} it
 * only parses (200); otherwise it publishes the term to Kafka and answers 202 once the
 * broker acknowledged it, with the version; an unchanged page publishes nothing and
 * answers 200 with {@code "published": false}. A page that cannot be parsed gets a 422
 * problem detail listing what is missing, and nothing is published. The answer comes
 * within {@code chainfeed.ingest.deadline} (see {@link IngestProblemHandler} for 503, 504
 * and 413).
 */
@RestController
@RequestMapping("/ingest/v1")
@RequiredArgsConstructor
class PageIngestController {

    private final IngestService service;

    private final IngestProperties props;

    private final org.springframework.beans.factory.ObjectProvider<IndexingProbe> indexing;

    @PostMapping(path = "/pages", consumes = { MediaType.TEXT_PLAIN_VALUE, MediaType.TEXT_HTML_VALUE },
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> ingestPage(@RequestBody byte[] body,
            @RequestHeader(name = "Content-Type") String contentType,
            @RequestParam(defaultValue = "false") boolean dryRun, @RequestParam(required = false) String sourceUrl) {
        if (body.length > props.maxPageBytes()) {
            throw new PageTooLargeException(body.length, props.maxPageBytes());
        }
        Deadline until = Deadline.after(props.deadline());
        boolean html = MediaType.parseMediaType(contentType).isCompatibleWith(MediaType.TEXT_HTML);
        IngestService.PageResult r = service.ingestPage(new String(body, StandardCharsets.UTF_8), html, sourceUrl,
                dryRun, until);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dryRun", dryRun);
        boolean published = r.result() != null && r.result().outcome() == TermPublisher.Outcome.PUBLISHED;
        out.put("published", published);
        out.put("readId", "term:" + r.term().slug());
        if (r.result() != null) {
            out.put("version", r.result().version());
        }
        out.put("term", TermJson.of(r.term()));
        if (published) {
            // Committed, but searchable only once Elasticsearch takes writes: say whether
            // that is now.
            indexing.ifAvailable(probe -> out.put("indexing", probe.state().view()));
        }
        return ResponseEntity.status(published ? HttpStatus.ACCEPTED : HttpStatus.OK).body(out);
    }

    /** The request body is over the configured limit. */
    static final class PageTooLargeException extends RuntimeException {

        PageTooLargeException(int size, int limit) {
            super("page is " + size + " bytes; the limit is " + limit + " bytes");
        }

    }

}
