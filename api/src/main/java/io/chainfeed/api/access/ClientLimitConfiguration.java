package io.chainfeed.api.access;

import io.chainfeed.api.support.server.PathGroups;
import io.chainfeed.api.support.server.RateLimitFields;
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
 * and the OpenAPI description are not limited.
 */
@Configuration
@EnableConfigurationProperties(ClientLimitProperties.class)
public class ClientLimitConfiguration implements WebMvcConfigurer {

    private final ClientLimitProperties props;

    ClientLimitConfiguration(ClientLimitProperties props) {
        this.props = props;
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

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        if (props.enabled()) {
            registry
                .addInterceptor(new ClientLimitInterceptor(clientAddresses(), clientRateLimits(), "the public paths"))
                .addPathPatterns(PathGroups.PUBLIC_PATHS)
                .excludePathPatterns(PathGroups.ADMIN_PATHS);
            registry
                .addInterceptor(new ClientLimitInterceptor(clientAddresses(), adminRateLimits(), "the admin key paths"))
                .addPathPatterns(PathGroups.ADMIN_PATHS);
        }
    }

}
