package io.chainfeed.api.support.server;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.BadRequestException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class ControlCharacterGuardTest {

    private static MockHttpServletRequest request(String path) {
        MockHttpServletRequest r = new MockHttpServletRequest("GET", path);
        r.setRequestURI(path);
        return r;
    }

    @Test
    void aParameterOrPathWithAControlCharacterIsABadRequestNamingIt() {
        MockHttpServletRequest nul = request("/api/v1/companies");
        nul.addParameter("layer", "\u0000");
        assertThatThrownBy(() -> ControlCharacterGuard.check(nul)).isInstanceOf(BadRequestException.class)
            .hasMessageStartingWith("layer must not hold control characters");
        MockHttpServletRequest bell = request("/api/v1/suggest");
        bell.addParameter("q", "\u0007bell");
        assertThatThrownBy(() -> ControlCharacterGuard.check(bell)).isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> ControlCharacterGuard.check(request("/api/v1/terms/a\u001bb")))
            .isInstanceOf(BadRequestException.class)
            .hasMessageStartingWith("the path");
    }

    @Test
    void tabsLineEndsAndOtherTextPass() {
        MockHttpServletRequest fine = request("/api/v1/search");
        fine.addParameter("q", "HBM\tshortage\r\nin 2026 \u2014 \uD83D\uDE80 <b>");
        assertThatCode(() -> ControlCharacterGuard.check(fine)).doesNotThrowAnyException();
    }

}
