package io.chainfeed.api.access;

import io.chainfeed.api.support.server.PathGroups;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts the per-client limit ({@link ClientLimitInterceptor}) in front of every public
 * path, unless {@code chainfeed.api.client-limits.enabled} is {@code false}. Keyed paths
 * (admin keys, webhook subscriptions) have their key's rate instead; static files, health
 * and the OpenAPI description are not limited.
 */
@Configuration
@EnableConfigurationProperties(ClientLimitProperties.class)
public class ClientLimitConfiguration implements WebMvcConfigurer {

    /** The paths limited per client: {@link PathGroups#PUBLIC_PATHS}. */
    public static final List<String> PUBLIC_PATHS = PathGroups.PUBLIC_PATHS;

    /** Paths under {@link #PUBLIC_PATHS} that a key's own rate limits instead. */
    public static final List<String> KEYED_PATHS = PathGroups.KEYED_PATHS;

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
        return new ClientRateLimits(props.perMinute(), props.maxClients());
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        if (props.enabled()) {
            registry.addInterceptor(new ClientLimitInterceptor(clientAddresses(), clientRateLimits()))
                .addPathPatterns(PUBLIC_PATHS)
                .excludePathPatterns(KEYED_PATHS);
        }
    }

}
