package io.chainfeed.platform;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * Actuator health component {@code indexing} from an {@link IndexingProbe}: UP while
 * reads can be indexed, {@link #WAITING} with the reason while they cannot. A service
 * that goes on accepting writes meanwhile ranks WAITING below UP in its status order, so
 * its overall status stays UP (it is not taken out of rotation) and the component says
 * what is waiting.
 *
 * @param probe the probe
 */
public record IndexingHealthIndicator(IndexingProbe probe) implements HealthIndicator {
    /**
     * Reads are accepted and kept, but not searchable until Elasticsearch takes writes
     * again.
     */
    public static final Status WAITING = new Status("WAITING",
            "reads are accepted and kept in Kafka, and indexed once Elasticsearch takes writes again");

    @Override
    public Health health() {
        IndexingProbe.State s = probe.state();
        return (s.indexable() ? Health.up() : Health.status(WAITING)).withDetails(s.view()).build();
    }
}
