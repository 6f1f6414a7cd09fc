package io.chainfeed.ingest.web;

import static org.hamcrest.Matchers.contains;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.avro.Source;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.page.PageParseException;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.ingest.publish.TermPublisher;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code POST /ingest/v1/pages} in a web slice: statuses, the answer's shape and the
 * problem details; the ingest use case is a Mockito stand-in ({@code PageEndpointIT} runs
 * it against a real broker).
 */
@WebMvcTest(PageIngestController.class)
@TestPropertySource(properties = "chainfeed.ingest.max-page-bytes=200")
class PageIngestControllerTest {

    private static final TermContent RDMA = new TermContent("rdma", "RDMA", List.of("remote DMA"),
            "Memory access across machines.", List.of(), "network-fabric", List.of(), List.of(),
            List.of(new Source("Wikipedia", "https://en.wikipedia.org/wiki/RDMA")), TermContent.DEFAULT_DISCLAIMER,
            "page");

    @Autowired
    MockMvc mvc;

    @MockitoBean
    IngestService service;

    @Test
    void aPublishedPageIsAcceptedWithItsVersionAndTerm() throws Exception {
        when(service.ingestPage(eq("RDMA page"), eq(false), isNull(), eq(false), any(Deadline.class)))
            .thenReturn(new IngestService.PageResult(RDMA,
                    new TermPublisher.Result("rdma", 42L, TermPublisher.Outcome.PUBLISHED)));

        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.TEXT_PLAIN).content("RDMA page"))
            .andExpect(status().isAccepted())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
            .andExpect(jsonPath("$.dryRun").value(false))
            .andExpect(jsonPath("$.published").value(true))
            .andExpect(jsonPath("$.readId").value("term:rdma"))
            .andExpect(jsonPath("$.version").value(42))
            .andExpect(jsonPath("$.term.slug").value("rdma"))
            .andExpect(jsonPath("$.term.layer").value("network-fabric"))
            .andExpect(jsonPath("$.term.sources[*].name", contains("Wikipedia")));
    }

    @Test
    void anUnchangedPageOrADryRunAnswersOkWithNothingPublished() throws Exception {
        when(service.ingestPage(eq("<p>RDMA</p>"), eq(true), eq("https://example.org/rdma"), eq(true),
                any(Deadline.class)))
            .thenReturn(new IngestService.PageResult(RDMA, null));
        when(service.ingestPage(eq("RDMA page"), eq(false), isNull(), eq(false), any(Deadline.class)))
            .thenReturn(new IngestService.PageResult(RDMA,
                    new TermPublisher.Result("rdma", 42L, TermPublisher.Outcome.UNCHANGED)));

        mvc.perform(post("/ingest/v1/pages").param("dryRun", "true")
            .param("sourceUrl", "https://example.org/rdma")
            .contentType(MediaType.TEXT_HTML)
            .content("<p>RDMA</p>"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.dryRun").value(true))
            .andExpect(jsonPath("$.published").value(false))
            .andExpect(jsonPath("$.version").doesNotExist());
        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.TEXT_PLAIN).content("RDMA page"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.published").value(false))
            .andExpect(jsonPath("$.version").value(42));
    }

    @Test
    void anUnparseablePageIsAnUnprocessableProblemListingWhatIsMissing() throws Exception {
        when(service.ingestPage(eq("no title"), eq(false), isNull(), eq(false), any(Deadline.class)))
            .thenThrow(new PageParseException("the page has no title", List.of("title", "definition")));

        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.TEXT_PLAIN).content("no title"))
            .andExpect(status().isUnprocessableEntity())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/unparseable-page"))
            .andExpect(jsonPath("$.missing", contains("title", "definition")));
    }

    @Test
    void anUnacknowledgedPublishIsAServiceUnavailableProblem() throws Exception {
        when(service.ingestPage(eq("RDMA page"), eq(false), isNull(), eq(false), any(Deadline.class)))
            .thenThrow(new PublishException("no acknowledgement within 10 s"));

        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.TEXT_PLAIN).content("RDMA page"))
            .andExpect(status().isServiceUnavailable())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/publish-failed"));
    }

    @Test
    void anOversizedBodyOrAnotherMediaTypeIsRefusedBeforeParsing() throws Exception {
        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.TEXT_PLAIN).content("x".repeat(201)))
            .andExpect(status().isPayloadTooLarge())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/page-too-large"))
            .andExpect(jsonPath("$.detail").value("page is 201 bytes; the limit is 200 bytes"));
        mvc.perform(post("/ingest/v1/pages").contentType(MediaType.APPLICATION_PDF).content("%PDF"))
            .andExpect(status().isUnsupportedMediaType())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/invalid-request"));
        verifyNoInteractions(service);
    }

}
