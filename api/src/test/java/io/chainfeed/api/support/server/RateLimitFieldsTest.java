package io.chainfeed.api.support.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;

/** The draft-10 rate-limit fields, one item per policy. */
class RateLimitFieldsTest {

    @Test
    void oneLimitIsOneItemOfEachField() {
        RateLimitFields.Limit key = new RateLimitFields.Limit(RateLimitFields.KEY, 60, 60, 59, 1);
        assertThat(RateLimitFields.of(key)).containsEntry("RateLimit-Policy", "\"key\";q=60;w=60")
            .containsEntry("RateLimit", "\"key\";r=59;t=1")
            .hasSize(2);
    }

    @Test
    void twoLimitsAreTwoItemsInTheOrderTakenAndAPolicyIsReplacedNotRepeated() {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RateLimitFields.add(response, new RateLimitFields.Limit(RateLimitFields.CLIENT, 240, 60, 239, 1));
        RateLimitFields.add(response, new RateLimitFields.Limit(RateLimitFields.KEY, 60, 60, 10, 50));
        assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"client\";q=240;w=60, \"key\";q=60;w=60");
        assertThat(response.getHeader("RateLimit")).isEqualTo("\"client\";r=239;t=1, \"key\";r=10;t=50");
        RateLimitFields.add(response, new RateLimitFields.Limit(RateLimitFields.KEY, 60, 60, 9, 51));
        assertThat(response.getHeader("RateLimit")).isEqualTo("\"client\";r=239;t=1, \"key\";r=9;t=51");
        assertThat(response.getHeaders("RateLimit")).hasSize(1);
    }

    @Test
    void negativeFiguresAreShownAsZero() {
        // a bucket in debt (charged by another instance) has nothing left
        assertThat(new RateLimitFields.Limit(RateLimitFields.KEY, 5, 60, -3, 2).stateItem())
            .isEqualTo("\"key\";r=0;t=2");
    }

}
