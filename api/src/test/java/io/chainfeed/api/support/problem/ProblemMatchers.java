package io.chainfeed.api.support.problem;

import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultMatcher;

/**
 * MockMvc expectations for this API's RFC 9457 problem details, shared by the web-slice
 * tests.
 */
public final class ProblemMatchers {

    private ProblemMatchers() {
    }

    /**
     * @param status the HTTP status
     * @param type the problem type's last path segment, e.g. {@code not-found}
     * @param detail the exact detail
     * @return a problem+json answer with that status, type URI, matching {@code status}
     * member and detail
     */
    public static ResultMatcher problem(int status, String type, String detail) {
        return ResultMatcher.matchAll(status().is(status),
                content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON),
                jsonPath("$.type").value("https://chainfeed.io/problems/" + type), jsonPath("$.status").value(status),
                jsonPath("$.detail").value(detail));
    }

}
