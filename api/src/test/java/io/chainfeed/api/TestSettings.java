package io.chainfeed.api;

import io.chainfeed.api.support.settings.ApiProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Settings records bound as the application binds them (Spring Boot's {@link Binder}),
 * from a few properties and the records' own defaults, for tests that build a component
 * without a context.
 */
public final class TestSettings {

    private TestSettings() {
    }

    /**
     * @param properties property names (full, e.g. {@code chainfeed.api.streams.timeout})
     * and values, alternating
     * @return {@code chainfeed.api} bound from them, every other setting at its default
     * @throws IllegalArgumentException on an odd number of arguments
     */
    public static ApiProperties api(String... properties) {
        return bind("chainfeed.api", ApiProperties.class, properties);
    }

    /**
     * @param prefix the record's prefix
     * @param type the record
     * @param properties property names and values, alternating
     * @param <T> the record's type
     * @return the record bound from them and its defaults
     * @throws IllegalArgumentException on an odd number of arguments
     */
    public static <T> T bind(String prefix, Class<T> type, String... properties) {
        if (properties.length % 2 != 0) {
            throw new IllegalArgumentException("names and values alternate");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < properties.length; i += 2) {
            map.put(properties[i], properties[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(map)).bindOrCreate(prefix, type);
    }

}
