package io.chainfeed.ingest.web;

import static org.hamcrest.Matchers.hasSize;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.SignalDecider;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalLookup;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.platform.auth.HashedKeys;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * {@code POST /ingest/v1/signals} in a web slice: the editor key check is real, the
 * validation and publishing use case a Mockito stand-in ({@code SignalEndpointIT} runs it
 * against a real broker).
 */
@WebMvcTest(SignalController.class)
@TestPropertySource(properties = "chainfeed.ingest.max-page-bytes=2000")
class SignalControllerTest {

    private static final String EDITOR = "Bearer editor-secret";

    private static final String ONE = """
            {"headline":"HBM sold out","layers":["memory"],"direction":"tightening","magnitude":4,
             "observedAt":"2026-03-01T00:00:00Z","source":{"name":"SK hynix","url":"https://example.org/a"}}""";

    private static final ConstraintSignal SIGNAL = ConstraintSignal.newBuilder()
        .setId("s-1")
        .setHeadline("HBM sold out")
        .setLayerHints(List.of("memory"))
        .setDirection(Direction.TIGHTENING)
        .setMagnitude(4)
        .setObservedAt(Instant.parse("2026-03-01T00:00:00Z"))
        .setSource(new Source("SK hynix", "https://example.org/a"))
        .setVersion(7)
        .build();

    @TestConfiguration
    static class EditorKeys {

        @Bean
        HashedKeys editorKeys() {
            return new HashedKeys("chainfeed.ingest.editor-key-hashes", List.of(HashedKeys.hash("editor-secret")));
        }

        @Bean
        SignalValidator signalValidator() {
            Corpus corpus = Corpus.loadBundled();
            return new SignalValidator(corpus.layers(), SignalDecider.of(corpus), 0.6);
        }

        /** Reviews need Kafka: SignalEndpointIT covers them. */
        @Bean
        SignalLookup signalLookup() {
            return new SignalLookup(() -> {
                throw new IllegalStateException("no Kafka in a web slice");
            });
        }

    }

    @Autowired
    MockMvc mvc;

    @MockitoBean
    SignalIngest ingest;

    @Test
    void validSignalsArePublishedAndListedWithTheirReadIds() throws Exception {
        when(ingest.ingest(argThat(l -> l.size() == 1), eq(false), any(Deadline.class))).thenReturn(
                new SignalIngest.BatchResult(List.of(new SignalIngest.Accepted(0, 0, SIGNAL)), List.of(), true));

        mvc.perform(post("/ingest/v1/signals").header("Authorization", EDITOR)
            .contentType(MediaType.APPLICATION_JSON)
            .content(ONE))
            .andExpect(status().isAccepted())
            .andExpect(jsonPath("$.published").value(true))
            .andExpect(jsonPath("$.accepted[0].readId").value("signal:s-1"))
            .andExpect(jsonPath("$.accepted[0].line").doesNotExist())
            .andExpect(jsonPath("$.accepted[0].direction").value("tightening"))
            .andExpect(jsonPath("$.accepted[0].observedAt").value("2026-03-01T00:00:00Z"))
            .andExpect(jsonPath("$.accepted[0].source.url").value("https://example.org/a"))
            .andExpect(jsonPath("$.rejected").isEmpty());
    }

    @Test
    void aDryRunOfJsonLinesListsTheLineOfEachSignalAndTheRejectedOnes() throws Exception {
        when(ingest.ingest(argThat(l -> l.size() == 2), eq(true), any(Deadline.class)))
            .thenReturn(new SignalIngest.BatchResult(List.of(new SignalIngest.Accepted(0, 1, SIGNAL)),
                    List.of(new SignalError(1, 2, "magnitude", "must be 1 to 5")), false));

        mvc.perform(post("/ingest/v1/signals").param("dryRun", "true")
            .header("Authorization", EDITOR)
            .contentType("application/x-ndjson")
            .content(ONE.replace("\n", "") + "\n" + ONE.replace("\n", "")))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.dryRun").value(true))
            .andExpect(jsonPath("$.accepted[0].line").value(1))
            .andExpect(jsonPath("$.rejected[0].field").value("magnitude"));
    }

    @Test
    void aBatchWithNothingValidIsAnUnprocessableProblemWithTheErrors() throws Exception {
        when(ingest.ingest(anyList(), anyBoolean(), any(Deadline.class))).thenReturn(new SignalIngest.BatchResult(
                List.of(), List.of(new SignalError(0, 0, "magnitude", "must be 1 to 5")), false));

        mvc.perform(post("/ingest/v1/signals").header("Authorization", EDITOR)
            .contentType(MediaType.APPLICATION_JSON)
            .content(ONE))
            .andExpect(status().isUnprocessableEntity())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/invalid-signals"))
            .andExpect(jsonPath("$.detail").value("the signal is invalid: item 0, magnitude: must be 1 to 5"))
            .andExpect(jsonPath("$.errors", hasSize(1)));
        mvc.perform(post("/ingest/v1/signals").header("Authorization", EDITOR)
            .contentType(MediaType.APPLICATION_JSON)
            .content("[]"))
            .andExpect(status().isUnprocessableEntity())
            .andExpect(jsonPath("$.detail").value("the batch holds no signal"));
    }

    @Test
    void withoutAnEditorKeyNothingIsReadAndTheAnswerIsAChallenge() throws Exception {
        mvc.perform(post("/ingest/v1/signals").contentType(MediaType.APPLICATION_JSON).content(ONE))
            .andExpect(status().isUnauthorized())
            .andExpect(header().string("WWW-Authenticate", "Bearer realm=\"chainfeed-ingest\""))
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/editor-key-required"));
        mvc.perform(post("/ingest/v1/signals").header("Authorization", "Bearer guess")
            .contentType(MediaType.APPLICATION_JSON)
            .content("x".repeat(3000))).andExpect(status().isUnauthorized());
        verifyNoInteractions(ingest);
    }

    @Test
    void anOversizedBatchIsRefusedBeforeItIsRead() throws Exception {
        mvc.perform(post("/ingest/v1/signals").header("Authorization", EDITOR)
            .contentType(MediaType.APPLICATION_JSON)
            .content("x".repeat(2001)))
            .andExpect(status().isPayloadTooLarge())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/page-too-large"));
        verifyNoInteractions(ingest);
    }

}
