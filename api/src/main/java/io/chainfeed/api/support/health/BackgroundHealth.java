package io.chainfeed.api.support.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * A health indicator whose check of a remote system (Elasticsearch, Kafka, the pipeline's
 * consumer groups) runs on a background thread every {@code refreshEvery}, so that
 * {@code GET /actuator/health} answers the newest result at once instead of making one
 * round trip per component per request: a busy probe or monitor never waits on, nor adds
 * load to, the systems it reports on (the asynchronous health checks of Dropwizard
 * Metrics work the same way).
 *
 * <p>
 * The answer is the check's own status and details plus {@code checkedAt} (ISO-8601,
 * UTC). Until the first background check has finished, a request runs the check itself. A
 * result older than {@code staleAfter} (the check hangs) is answered DOWN with the age in
 * {@code reason}. A check that throws is DOWN with the exception, as Spring Boot reports
 * it.
 */
public final class BackgroundHealth implements HealthIndicator, AutoCloseable {

    private record Result(Health health, Instant checkedAt) {
    }

    private final HealthIndicator check;

    private final Duration staleAfter;

    private final Clock clock;

    private final ScheduledExecutorService scheduler;

    private volatile Result last;

    /**
     * @param name the component's name, for the checking thread's name
     * @param check the check of the remote system
     * @param refreshEvery how long after a check ends the next starts (positive)
     * @param staleAfter how old the newest result may be before the component is DOWN
     * (longer than {@code refreshEvery} plus the check's own timeout)
     * @param clock the clock of {@code checkedAt} and of the age
     * @throws IllegalArgumentException when {@code refreshEvery} is not positive or
     * {@code staleAfter} is not longer than it
     */
    public BackgroundHealth(String name, HealthIndicator check, Duration refreshEvery, Duration staleAfter,
            Clock clock) {
        if (refreshEvery.isZero() || refreshEvery.isNegative() || staleAfter.compareTo(refreshEvery) <= 0) {
            throw new IllegalArgumentException("refresh-every must be positive and stale-after longer, got "
                    + refreshEvery + " and " + staleAfter);
        }
        this.check = check;
        this.staleAfter = staleAfter;
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "health-" + name);
            t.setDaemon(true);
            return t;
        });
        this.scheduler.scheduleWithFixedDelay(this::refresh, 0, refreshEvery.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs the check once and keeps its result (the background thread calls this). */
    void refresh() {
        Health health;
        try {
            health = check.health();
        }
        catch (RuntimeException e) {
            health = Health.down(e).build();
        }
        last = new Result(health, clock.instant());
    }

    /**
     * @return the newest check's status and details with {@code checkedAt}; DOWN when it
     * is older than {@code staleAfter}
     */
    @Override
    public Health health() {
        Result r = last;
        if (r == null) {
            refresh();
            r = last;
        }
        Duration age = Duration.between(r.checkedAt(), clock.instant());
        if (age.compareTo(staleAfter) > 0) {
            return Health.down()
                .withDetail("reason", "no check has finished for " + age.toMillis() + " ms: the check hangs")
                .withDetail("checkedAt", r.checkedAt().toString())
                .build();
        }
        return Health.status(r.health().getStatus())
            .withDetails(r.health().getDetails())
            .withDetail("checkedAt", r.checkedAt().toString())
            .build();
    }

    /**
     * Stops the background checks, then closes the check if it holds resources (an admin
     * client).
     * @throws IllegalStateException when closing the check fails
     */
    @Override
    public void close() {
        scheduler.shutdownNow();
        if (check instanceof AutoCloseable c) {
            try {
                c.close();
            }
            catch (Exception e) {
                throw new IllegalStateException("closing the health check failed", e);
            }
        }
    }

}
