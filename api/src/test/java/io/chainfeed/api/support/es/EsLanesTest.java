package io.chainfeed.api.support.es;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Each class of work takes its Elasticsearch slots from its own bulkhead: a request's
 * lane comes from its path, and a full search lane leaves the others free.
 */
class EsLanesTest {

    private final EsLanes lanes = new EsLanes(bulkheads());

    private static Map<EsLanes.Lane, Bulkhead> bulkheads() {
        Map<EsLanes.Lane, Bulkhead> all = new EnumMap<>(EsLanes.Lane.class);
        for (EsLanes.Lane lane : EsLanes.Lane.values()) {
            all.put(lane, Bulkhead.of("es-" + lane.id(),
                    BulkheadConfig.custom().maxConcurrentCalls(2).maxWaitDuration(Duration.ZERO).build()));
        }
        return all;
    }

    @Test
    void aRequestsLaneComesFromItsPath() {
        assertThat(EsLanes.of("/api/v1/search")).isEqualTo(EsLanes.Lane.SEARCH);
        assertThat(EsLanes.of("/api/v1/suggest")).isEqualTo(EsLanes.Lane.SEARCH);
        assertThat(EsLanes.of("/search")).isEqualTo(EsLanes.Lane.SEARCH);
        assertThat(EsLanes.of("/api/v1/feeds/atom")).isEqualTo(EsLanes.Lane.FEEDS);
        assertThat(EsLanes.of("/api/v1/feeds/json")).isEqualTo(EsLanes.Lane.FEEDS);
        assertThat(EsLanes.of("/widget/v1/data/feed")).isEqualTo(EsLanes.Lane.PUBLIC);
        assertThat(EsLanes.of("/api/v1/terms/hbm")).isEqualTo(EsLanes.Lane.PUBLIC);
        assertThat(EsLanes.of("/layers/memory")).isEqualTo(EsLanes.Lane.PUBLIC);
        assertThat(EsLanes.of("/searching-for-nothing")).isEqualTo(EsLanes.Lane.PUBLIC);
    }

    @Test
    void theFilterSetsTheLaneForTheRequestAndRestoresItAfter() throws Exception {
        AtomicReference<Bulkhead> during = new AtomicReference<>();
        MockHttpServletRequest search = new MockHttpServletRequest("GET", "/api/v1/search");
        new EsLanes.Filter().doFilter(search, new MockHttpServletResponse(), (req, res) -> during.set(lanes.get()));
        assertThat(during.get()).isSameAs(lanes.bulkhead(EsLanes.Lane.SEARCH));
        assertThat(EsLanes.current()).isEqualTo(EsLanes.Lane.BACKGROUND);
        assertThat(lanes.get()).isSameAs(lanes.bulkhead(EsLanes.Lane.BACKGROUND));
    }

    @Test
    void aFullSearchLaneLeavesTheWidgetsAndTheFeedsTheirSlots() {
        Bulkhead search = lanes.bulkhead(EsLanes.Lane.SEARCH);
        search.acquirePermission();
        search.acquirePermission();
        assertThatThrownBy(search::acquirePermission).isInstanceOf(BulkheadFullException.class);
        assertThat(lanes.bulkhead(EsLanes.Lane.PUBLIC).tryAcquirePermission()).isTrue();
        assertThat(lanes.bulkhead(EsLanes.Lane.FEEDS).tryAcquirePermission()).isTrue();
    }

    @Test
    void everyLaneNeedsABulkhead() {
        Map<EsLanes.Lane, Bulkhead> some = bulkheads();
        some.remove(EsLanes.Lane.FEEDS);
        assertThatThrownBy(() -> new EsLanes(some)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("feeds");
    }

}
