package io.chainfeed.api.widget;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.widget}.
 *
 * @param publicUrl this site's public origin (e.g. {@code https://chainfeed.example}, for
 * an API behind a proxy) that widgets, embed pages and oEmbed answers link to; empty: the
 * request's
 */
@ConfigurationProperties("chainfeed.widget")
public record WidgetProperties(@DefaultValue("") String publicUrl) {
}
