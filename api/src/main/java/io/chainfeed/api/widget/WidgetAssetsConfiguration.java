package io.chainfeed.api.widget;

import java.time.Duration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.filter.ShallowEtagHeaderFilter;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * How partner pages fetch the widget script and the embed stylesheet
 * ({@code /widget/v1/*.js, *.css}): cacheable by browsers and shared caches for ten
 * minutes, then revalidated with its ETag (RFC 9110 section 13, RFC 9111), so a fix
 * reaches every partner page within minutes without each page view downloading the script
 * again. It is gzip-compressed on the wire when the browser accepts it
 * ({@code server.compression.*}).
 */
@Configuration
class WidgetAssetsConfiguration implements WebMvcConfigurer {

    /** How long a fetched script may be used without asking again. */
    static final Duration MAX_AGE = Duration.ofMinutes(10);

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/widget/v1/*.js", "/widget/v1/*.css")
            .addResourceLocations("classpath:/static/widget/v1/")
            .setCacheControl(CacheControl.maxAge(MAX_AGE).cachePublic());
    }

    @Bean
    FilterRegistrationBean<ShallowEtagHeaderFilter> widgetScriptEtag() {
        ShallowEtagHeaderFilter etags = new ShallowEtagHeaderFilter();
        // Weak (RFC 9110 section 8.8.1): the same script is sent gzip-encoded or not, and
        // the container
        // does not compress answers that carry a strong ETag.
        etags.setWriteWeakETag(true);
        FilterRegistrationBean<ShallowEtagHeaderFilter> b = new FilterRegistrationBean<>(etags);
        // The files only: the data endpoints and the live stream under /widget/v1/data
        // must not be buffered.
        b.addUrlPatterns("/widget/v1/chainfeed.js", "/widget/v1/embed.css");
        b.setName("widgetScriptEtag");
        return b;
    }

}
