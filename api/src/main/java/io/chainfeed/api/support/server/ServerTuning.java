package io.chainfeed.api.support.server;

import io.chainfeed.api.support.problem.ProblemErrorHandler;
import io.chainfeed.api.support.settings.ApiProperties;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Settings of the embedded Jetty that Spring Boot has no property for.
 *
 * <p>
 * {@code chainfeed.api.server.accept-queue} (default 1024): the listen backlog of each
 * connector (connections the kernel has accepted and Jetty has not yet taken), so that
 * thousands of SSE clients reconnecting at once after a restart are queued, not refused.
 * The server's own error responses (a request Jetty refuses before the application sees
 * it) are problem details: {@link ProblemErrorHandler}.
 */
@Configuration(proxyBeanMethods = false)
class ServerTuning {

    @Bean
    WebServerFactoryCustomizer<JettyServletWebServerFactory> jettyServer(ApiProperties props) {
        int acceptQueue = props.server().acceptQueue();
        return factory -> factory.addServerCustomizers(server -> {
            server.setErrorHandler(new ProblemErrorHandler());
            for (var connector : server.getConnectors()) {
                if (connector instanceof ServerConnector sc) {
                    sc.setAcceptQueueSize(acceptQueue);
                }
            }
        });
    }

}
