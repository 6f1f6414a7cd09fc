package io.chainfeed.api.support.es;

import org.apache.http.impl.nio.client.HttpAsyncClientBuilder;
import org.elasticsearch.client.RestClientBuilder;
import org.springframework.boot.autoconfigure.elasticsearch.ElasticsearchProperties;
import org.springframework.boot.autoconfigure.elasticsearch.RestClientBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The connection pool of the Elasticsearch client that Spring Boot builds (Boot has no
 * property for it).
 *
 * <p>
 * The low-level {@code RestClient} keeps at most 10 connections to one node by default
 * (30 in all); a search holds one for its whole round trip, so past 10 concurrent
 * searches the rest queue in the API for a connection while Elasticsearch, which would
 * take them, idles. {@code
 * chainfeed.api.es.max-connections} (default 64) raises both limits: enough for every
 * concurrent search a loaded API serves (one per Jetty request) plus feeds, webhooks and
 * the widget, and still far below what one Elasticsearch node accepts.
 *
 * <p>
 * Without credentials ({@code spring.elasticsearch.username} unset) it also turns off the
 * HTTP client's auth cache: the low-level client seeds it with a basic-auth scheme for
 * every node, and Apache HttpClient 4's {@code BasicAuthCache} stores schemes
 * Java-serialised, so every request deserialised one (about 4 % of the API's CPU per
 * search in the profile of the search load) for nothing. With credentials the cache
 * stays, so they are sent preemptively.
 */
@Configuration(proxyBeanMethods = false)
class ElasticsearchConnections {

    @Bean
    RestClientBuilderCustomizer elasticsearchConnectionPool(EsProperties settings,
            ElasticsearchProperties elasticsearch) {
        int maxConnections = settings.maxConnections();
        boolean anonymous = elasticsearch.getUsername() == null || elasticsearch.getUsername().isEmpty();
        // Boot installs one HTTP client callback that runs every customizer's
        // customize(HttpAsyncClientBuilder):
        // hook in there, not with setHttpClientConfigCallback, which would replace Boot's
        // (timeouts, credentials).
        return new RestClientBuilderCustomizer() {
            @Override
            public void customize(RestClientBuilder builder) {
            }

            @Override
            public void customize(HttpAsyncClientBuilder builder) {
                builder.setMaxConnPerRoute(maxConnections).setMaxConnTotal(maxConnections);
                if (anonymous) {
                    builder.disableAuthCaching();
                }
            }
        };
    }

}
