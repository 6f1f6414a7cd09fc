package io.chainfeed.streams;

import java.util.function.Supplier;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Where a chain query ({@code /internal/v1/...}) is answered. The chain-state stores have
 * one partition, so one streams instance runs the task that owns them (the active host
 * Kafka Streams names for any key, {@link KeyQueryMetadata#activeHost()}); with
 * {@code num.standby.replicas} another keeps a warm standby copy.
 * <ul>
 * <li>{@link Kind#LOCAL}: this instance is the active host; the query runs here.</li>
 * <li>{@link Kind#FORWARD}: another instance is; the request is passed to it once (a
 * forwarded request is never forwarded again, so a rebalance cannot make a loop).</li>
 * <li>{@link Kind#STANDBY}: the owner is unknown (rebalancing), cannot be reached, or the
 * request was already forwarded, and this instance holds a copy at most {@code maxLag}
 * records behind its changelog: answered from that copy
 * ({@code StoreQueryParameters.enableStaleStores()}).</li>
 * <li>{@link Kind#UNAVAILABLE}: none of these; the answer is 503.</li>
 * </ul>
 *
 * @param kind where
 * @param host the instance to forward to ({@code host:port}), else null
 * @param why a short reason, for the answer's header and logs
 */
record ChainStoreRoute(Kind kind, String host, String why) {

    /** Where a query goes. */
    enum Kind {

        /** This instance runs the active task. */
        LOCAL,
        /** Another instance runs it: pass the request on. */
        FORWARD,
        /** Answer from this instance's standby (or restoring) copy, fresh enough. */
        STANDBY,
        /** Nobody can answer now. */
        UNAVAILABLE

    }

    /**
     * Decides where a query goes.
     * @param self this instance's {@code application.server}
     * @param owner what Kafka Streams says of the store's key (null or
     * {@link KeyQueryMetadata#NOT_AVAILABLE} while it does not know)
     * @param localLag how many records this instance's copy of the store is behind its
     * changelog, or null when it has none (asked only when the query does not run on the
     * active host: it costs a call to the brokers)
     * @param maxLag the most a standby copy may be behind to answer
     * @param forwarded whether another instance forwarded this request
     * @return the route
     */
    static ChainStoreRoute decide(HostInfo self, KeyQueryMetadata owner, Supplier<Long> localLag, long maxLag,
            boolean forwarded) {
        HostInfo active = known(owner) ? owner.activeHost() : null;
        if (active != null && active.equals(self)) {
            return new ChainStoreRoute(Kind.LOCAL, null, "active");
        }
        if (active != null && !forwarded) {
            return new ChainStoreRoute(Kind.FORWARD, active.host() + ":" + active.port(), "active elsewhere");
        }
        String why = active == null ? "owner unknown (rebalancing)" : "forwarded, and the owner is elsewhere";
        return fromStandby(localLag.get(), maxLag, why);
    }

    /**
     * Where a query goes once forwarding it failed (the owner did not answer, or answered
     * 5xx).
     * @param localLag as for {@link #decide}
     * @param maxLag as for {@link #decide}
     * @param failure what went wrong
     * @return {@link Kind#STANDBY} or {@link Kind#UNAVAILABLE}
     */
    static ChainStoreRoute afterFailedForward(Long localLag, long maxLag, String failure) {
        return fromStandby(localLag, maxLag, "the owner did not answer (" + failure + ")");
    }

    /**
     * @param localLag as for {@link #decide}
     * @param maxLag the most a copy may be behind to answer
     * @return whether this instance's copy is fresh enough to answer from
     */
    static boolean freshEnough(Long localLag, long maxLag) {
        return localLag != null && localLag >= 0 && localLag <= maxLag;
    }

    private static ChainStoreRoute fromStandby(Long localLag, long maxLag, String why) {
        if (freshEnough(localLag, maxLag)) {
            return new ChainStoreRoute(Kind.STANDBY, null, why + "; local copy " + localLag + " record(s) behind");
        }
        return new ChainStoreRoute(Kind.UNAVAILABLE, null, why + "; " + (localLag == null ? "no local copy"
                : "local copy " + localLag + " record(s) behind (max " + maxLag + ")"));
    }

    private static boolean known(KeyQueryMetadata owner) {
        return owner != null && owner != KeyQueryMetadata.NOT_AVAILABLE && owner.activeHost() != null
                && owner.activeHost().port() >= 0 && !HostInfo.unavailable().equals(owner.activeHost());
    }

}
