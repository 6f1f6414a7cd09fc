package io.chainfeed.api.access;

import static io.chainfeed.api.support.problem.ProblemMatchers.problem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.avro.ApiKeyKind;
import io.chainfeed.platform.auth.HashedKeys;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The admin key endpoints in a web slice: the admin key check is real, the key store a
 * Mockito stand-in.
 */
@WebMvcTest(AdminKeyController.class)
@TestPropertySource(properties = "chainfeed.api.admin-key-hashes=" + AdminKeyControllerTest.ADMIN_HASH)
class AdminKeyControllerTest {

    private static final String ADMIN = "Bearer admin-secret";

    /** SHA-256 of {@code admin-secret}. */
    static final String ADMIN_HASH = "16175223c8ddce5ace0493c948569c211b03c4c6bb3d3e484434999448cffe01";

    private static final ApiPrincipal READER = new ApiPrincipal("abcdefghijkl", ApiKeyKind.READER, "ops", List.of(),
            600, Instant.parse("2026-03-01T10:00:00Z"));

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ApiKeys keys;

    @Test
    void theHashInThisTestIsTheAdminKeys() {
        org.assertj.core.api.Assertions.assertThat(HashedKeys.hash("admin-secret")).isEqualTo(ADMIN_HASH);
    }

    @Test
    void issuingAKeyAnswersCreatedWithItsLocationAndTheTokenOnce() throws Exception {
        when(keys.create(ApiKeyKind.READER, "ops", null, 600)).thenReturn(new IssuedKey(READER, "cf_token"));

        mvc.perform(post("/api/v1/admin/keys").header("Authorization", ADMIN)
            .contentType(MediaType.APPLICATION_JSON)
            .content("{\"kind\":\"READER\",\"label\":\"ops\"}"))
            .andExpect(status().isCreated())
            .andExpect(header().string("Location", "/api/v1/admin/keys/abcdefghijkl"))
            .andExpect(jsonPath("$.id").value("abcdefghijkl"))
            .andExpect(jsonPath("$.kind").value("READER"))
            .andExpect(jsonPath("$.ratePerMinute").value(600))
            .andExpect(jsonPath("$.createdAt").value("2026-03-01T10:00:00Z"))
            .andExpect(jsonPath("$.token").value("cf_token"));
    }

    @Test
    void theListNeverShowsTokens() throws Exception {
        when(keys.list()).thenReturn(List.of(READER));

        mvc.perform(get("/api/v1/admin/keys").header("Authorization", ADMIN))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$[0].id").value("abcdefghijkl"))
            .andExpect(jsonPath("$[0]", not(hasKey("token"))));
    }

    @Test
    void revokingAnswersNoContentOrANotFoundProblem() throws Exception {
        when(keys.revoke("abcdefghijkl")).thenReturn(true);

        mvc.perform(delete("/api/v1/admin/keys/abcdefghijkl").header("Authorization", ADMIN))
            .andExpect(status().isNoContent());
        mvc.perform(delete("/api/v1/admin/keys/unknown").header("Authorization", ADMIN))
            .andExpect(problem(404, "not-found", "no API key with id 'unknown'"));
        verify(keys).revoke("unknown");
    }

    @Test
    void withoutTheAdminKeyEveryCallIsAnUnauthorizedProblemWithAChallenge() throws Exception {
        mvc.perform(get("/api/v1/admin/keys"))
            .andExpect(status().isUnauthorized())
            .andExpect(header().string("WWW-Authenticate", "Bearer realm=\"chainfeed\""))
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/unauthorized"));
        mvc.perform(delete("/api/v1/admin/keys/abcdefghijkl").header("Authorization", "Bearer wrong"))
            .andExpect(problem(401, "unauthorized", "an admin key is required: Authorization: Bearer <admin key>"));
        // ApiKeys is a lifecycle bean, so the context itself talks to the mock; the key
        // store was never asked
        verify(keys, never()).list();
        verify(keys, never()).revoke(anyString());
    }

}
