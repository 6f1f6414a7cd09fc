package io.chainfeed.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.streams.ChainStoreRoute.Kind;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/**
 * Where a chain query goes on a cluster of streams instances: to the owner of the
 * chain-state stores, once; to a fresh standby copy when the owner is unknown or silent;
 * 503 otherwise.
 */
class ChainStoreRouteTest {

    private static final HostInfo ONE = new HostInfo("127.0.0.1", 29040);

    private static final HostInfo TWO = new HostInfo("127.0.0.1", 29041);

    private static KeyQueryMetadata ownedBy(HostInfo active, HostInfo standby) {
        return new KeyQueryMetadata(active, Set.of(standby), 0);
    }

    @Test
    void theOwnerAnswersItselfWithoutAskingForItsLag() {
        AtomicInteger asked = new AtomicInteger();
        Supplier<Long> lag = () -> {
            asked.incrementAndGet();
            return 0L;
        };
        ChainStoreRoute route = ChainStoreRoute.decide(ONE, ownedBy(ONE, TWO), lag, 100, false);
        assertThat(route.kind()).isEqualTo(Kind.LOCAL);
        assertThat(asked).hasValue(0);
        assertThat(ChainStoreRoute.decide(ONE, ownedBy(ONE, TWO), lag, 100, true).kind())
            .as("also when forwarded to it")
            .isEqualTo(Kind.LOCAL);
    }

    @Test
    void anotherInstanceForwardsToTheOwner() {
        ChainStoreRoute route = ChainStoreRoute.decide(TWO, ownedBy(ONE, TWO), () -> 0L, 100, false);
        assertThat(route.kind()).isEqualTo(Kind.FORWARD);
        assertThat(route.host()).isEqualTo("127.0.0.1:29040");
    }

    @Test
    void aForwardedRequestIsNeverForwardedAgain() {
        // The instances' metadata disagree during a rebalance: TWO thinks ONE owns the
        // stores, ONE thinks TWO does.
        assertThat(ChainStoreRoute.decide(TWO, ownedBy(ONE, TWO), () -> 3L, 100, true).kind()).isEqualTo(Kind.STANDBY);
        assertThat(ChainStoreRoute.decide(TWO, ownedBy(ONE, TWO), () -> null, 100, true).kind())
            .isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void anUnknownOwnerLeavesAFreshLocalCopyToAnswer() {
        for (KeyQueryMetadata unknown : new KeyQueryMetadata[] { null, KeyQueryMetadata.NOT_AVAILABLE,
                new KeyQueryMetadata(HostInfo.unavailable(), Set.of(), 0) }) {
            assertThat(ChainStoreRoute.decide(TWO, unknown, () -> 100L, 100, false).kind()).isEqualTo(Kind.STANDBY);
            ChainStoreRoute stale = ChainStoreRoute.decide(TWO, unknown, () -> 101L, 100, false);
            assertThat(stale.kind()).isEqualTo(Kind.UNAVAILABLE);
            assertThat(stale.why()).contains("101 record(s) behind (max 100)");
            assertThat(ChainStoreRoute.decide(TWO, unknown, () -> null, 100, false).why()).contains("no local copy");
        }
    }

    @Test
    void aSilentOwnerLeavesAFreshLocalCopyToAnswer() {
        ChainStoreRoute route = ChainStoreRoute.afterFailedForward(0L, 100, "java.net.ConnectException");
        assertThat(route.kind()).isEqualTo(Kind.STANDBY);
        assertThat(route.why()).contains("the owner did not answer (java.net.ConnectException)");
        assertThat(ChainStoreRoute.afterFailedForward(null, 100, "HTTP 503").kind()).isEqualTo(Kind.UNAVAILABLE);
    }

}
