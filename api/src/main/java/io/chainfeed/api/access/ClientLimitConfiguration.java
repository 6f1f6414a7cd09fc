package io.chainfeed.api.access;

import io.chainfeed.api.support.server.PathGroups;
import io.chainfeed.api.support.server.RateLimitFields;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts the per-client limits ({@link ClientLimitInterceptor}) in front of every public
 * path at {@code chainfeed.api.client-limits.per-minute} (policy
 * {@value RateLimitFields#CLIENT}), and in front of the admin key paths at
 * {@code admin-per-minute} (policy {@value RateLimitFields#ADMIN}, buckets of their own),
 * unless {@code chainfeed.api.client-limits.enabled} is {@code false}. Keyed paths (the
 * webhook subscriptions, the widget's) have their key's rate on top; static files, health
 * and the OpenAPI description are not limited. Refusals are held up to
 * {@code refusal-delay} before they are sent ({@link RefusalDelays}).
 */
@Configuration
@EnableConfigurationProperties(ClientLimitProperties.class)
public class ClientLimitConfiguration implements WebMvcConfigurer {

    private final ClientLimitProperties props;

    private final ObjectProvider<RefusalDelays> delays;

    ClientLimitConfiguration(ClientLimitProperties props, ObjectProvider<RefusalDelays> delays) {
        this.props = props;
        this.delays = delays;
    }

    @Bean
    ClientAddresses clientAddresses() {
        return new ClientAddresses(props.trustedBlocks(), props.ipv6PrefixBits());
    }

    @Bean
    ClientRateLimits clientRateLimits() {
        return new ClientRateLimits(RateLimitFields.CLIENT, props.perMinute(), props.maxClients());
    }

    @Bean
    ClientRateLimits adminRateLimits() {
        return new ClientRateLimits(RateLimitFields.ADMIN, props.adminPerMinute(), props.maxClients());
    }

    @Bean(destroyMethod = "close")
    RefusalDelays refusalDelays(ObjectProvider<MeterRegistry> registry) {
        RefusalDelays delays = new RefusalDelays(props.refusalDelay(), props.maxHeldRefusals());
        registry.ifAvailable(r -> meters(delays, r));
        return delays;
    }

    /**
     * The held refusals' meters, in the Spring-managed registry (none in a web slice
     * test).
     */
    private static void meters(RefusalDelays delays, MeterRegistry registry) {
        Gauge.builder("chainfeed.refusals.held", delays, RefusalDelays::held)
            .description("Per-client 429s held at this moment, waiting for their delay")
            .register(registry);
        FunctionCounter.builder("chainfeed.refusals", delays, RefusalDelays::delayedCount)
            .tag("answered", "delayed")
            .description("Per-client 429s, by whether they were held before being sent")
            .register(registry);
        FunctionCounter.builder("chainfeed.refusals", delays, RefusalDelays::immediateCount)
            .tag("answered", "at-once")
            .description("Per-client 429s, by whether they were held before being sent")
            .register(registry);
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        if (props.enabled()) {
            registry
                .addInterceptor(new ClientLimitInterceptor(clientAddresses(), clientRateLimits(), "the public paths",
                        delays.getObject()))
                .addPathPatterns(PathGroups.PUBLIC_PATHS)
                .excludePathPatterns(PathGroups.ADMIN_PATHS);
            registry
                .addInterceptor(new ClientLimitInterceptor(clientAddresses(), adminRateLimits(), "the admin key paths",
                        delays.getObject()))
                .addPathPatterns(PathGroups.ADMIN_PATHS);
        }
    }

}
