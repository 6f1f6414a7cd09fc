package io.chainfeed.platform.net;

import java.time.Duration;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Apache HttpClient 5 clients for outbound requests to addresses users give us (webhook
 * targets, feeds and pages to fetch). Every connection resolves its host through
 * {@link GuardedDnsResolver}, so the addresses are checked by the {@link AddressGuard} at
 * connect time and the socket goes to exactly a checked address (no DNS rebinding between
 * check and connect). The client follows no redirect (the caller checks and follows each
 * hop itself), never retries, keeps no cookies or credentials, does not ask for
 * compressed answers, and keeps pooled connections at most a minute.
 */
public final class GuardedHttpClients {

    private GuardedHttpClients() {
    }

    /**
     * @param guard checks every resolved address
     * @param connectTimeout TCP connect timeout
     * @param idleTimeout longest wait for data, and for a pooled connection
     * @param maxConnections connections open at once in all (at most 2 per host)
     * @param userAgent the {@code User-Agent} header
     * @return a new client; closing it closes its connections
     */
    public static CloseableHttpClient create(AddressGuard guard, Duration connectTimeout, Duration idleTimeout,
            int maxConnections, String userAgent) {
        return HttpClients.custom()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(new GuardedDnsResolver(guard))
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(2)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.of(connectTimeout))
                    .setSocketTimeout(Timeout.of(idleTimeout))
                    .setTimeToLive(TimeValue.ofMinutes(1))
                    .build())
                .build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableAuthCaching()
            .disableContentCompression()
            .setUserAgent(userAgent)
            .setDefaultRequestConfig(RequestConfig.custom()
                .setResponseTimeout(Timeout.of(idleTimeout))
                .setConnectionRequestTimeout(Timeout.of(idleTimeout))
                .setRedirectsEnabled(false)
                .setAuthenticationEnabled(false)
                .build())
            .build();
    }

}
