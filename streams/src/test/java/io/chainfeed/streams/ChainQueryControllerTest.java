package io.chainfeed.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.chainfeed.streams.chain.ChainQueries;
import java.util.List;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.server.ResponseStatusException;

/**
 * The owner of the chain-state stores answers while its stream thread rebalances (not
 * RUNNING) from the same copy queried as a possibly stale store, when it is fresh enough;
 * before, every such query was a 503 for the length of the rebalance.
 */
class ChainQueryControllerTest {

    private final StreamsRunner runner = mock(StreamsRunner.class);

    private final ChainQueryController controller = new ChainQueryController(runner);

    private static ChainQueries rebalancing() {
        return new ChainQueries(new ChainQueries.Stores() {
            @Override
            public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
                throw new InvalidStateStoreException("Cannot get state store " + name
                        + " because the stream thread is PARTITIONS_ASSIGNED, not RUNNING");
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static ChainQueries empty() {
        return new ChainQueries(new ChainQueries.Stores() {
            @Override
            public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
                ReadOnlyKeyValueStore<String, V> store = mock(ReadOnlyKeyValueStore.class);
                when(store.all()).thenReturn(mock(KeyValueIterator.class));
                return store;
            }
        });
    }

    @Test
    void aRebalancingOwnerAnswersFromItsFreshCopy() {
        when(runner.chainQueries(false)).thenReturn(rebalancing());
        when(runner.chainQueries(true)).thenReturn(empty());
        when(runner.chainCopyFresh()).thenReturn(true);
        assertThat(controller.chain("2026-11-30T00:00:00Z", new MockHttpServletRequest()).getStatusCode().value())
            .isEqualTo(200);
    }

    @Test
    void aCopyTooFarBehindOrAlreadyStaleIsNotAskedAgain() {
        when(runner.chainQueries(false)).thenReturn(rebalancing());
        when(runner.chainQueries(true)).thenReturn(rebalancing());
        when(runner.chainCopyFresh()).thenReturn(false);
        assertThatThrownBy(() -> controller.chain("2026-11-30T00:00:00Z", new MockHttpServletRequest()))
            .isInstanceOf(InvalidStateStoreException.class);

        when(runner.chainCopyFresh()).thenReturn(true);
        MockHttpServletRequest standby = new MockHttpServletRequest();
        standby.setAttribute(ChainQueryRouting.STALE_ATTRIBUTE, Boolean.TRUE);
        assertThatThrownBy(() -> controller.history("memory", "2026-11-30T00:00:00Z", "PT1H", 2, standby))
            .isInstanceOf(InvalidStateStoreException.class);
    }

    @Test
    void instantsOutsideTheModelsRangeAndHistoriesPassingItAreTheCallersError() {
        when(runner.chainQueries(false)).thenReturn(empty());
        for (String asOf : List.of("1969-12-31T00:00:00Z", "+10000-01-01T00:00:00Z")) {
            assertThatThrownBy(() -> controller.chain(asOf, new MockHttpServletRequest()))
                .isInstanceOfSatisfying(ResponseStatusException.class,
                        e -> assertThat(e.getStatusCode().value()).isEqualTo(400))
                .hasMessageContaining("asOf must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z");
        }
        assertThat(controller.chain("1970-01-01T00:00:00Z", new MockHttpServletRequest()).getStatusCode().value())
            .as("the chain at time zero, before any signal: empty, not an error")
            .isEqualTo(200);
        assertThatThrownBy(
                () -> controller.history("memory", "9999-01-01T00:00:00Z", "P1000D", 3, new MockHttpServletRequest()))
            .isInstanceOfSatisfying(ResponseStatusException.class,
                    e -> assertThat(e.getStatusCode().value()).isEqualTo(400))
            .hasMessageContaining("must not pass 9999-12-31T23:59:59.999Z");
        assertThatThrownBy(() -> controller.history("memory", "2026-01-01T00:00:00Z", "PT9223372036854775807S", 3,
                new MockHttpServletRequest()))
            .isInstanceOfSatisfying(ResponseStatusException.class,
                    e -> assertThat(e.getStatusCode().value()).isEqualTo(400));
        assertThat(ChainQueryController.lastPoint(Long.MAX_VALUE - 1, 2, 3)).isEqualTo(Long.MAX_VALUE);
    }

}
