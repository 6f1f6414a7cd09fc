package io.chainfeed.api.access;

import io.chainfeed.api.support.server.WarmupKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The warm-up's partner key: a key of this process only ({@link ApiKeys#issueLocal}),
 * allowing one origin at the default partner rate, withdrawn when the lease is closed.
 */
@Component
class LocalWarmupKeys implements WarmupKeys {

    private final ApiKeys keys;

    LocalWarmupKeys(ApiKeys keys) {
        this.keys = keys;
    }

    @Override
    public Lease lend(String origin) {
        String normalised = ApiKeys.normaliseOrigin(origin)
            .orElseThrow(() -> new IllegalArgumentException("not a web origin: " + origin));
        IssuedKey issued = keys.issueLocal("api warm-up", List.of(normalised), ApiKeys.DEFAULT_PARTNER_RATE);
        return new Lease() {
            @Override
            public String token() {
                return issued.token();
            }

            @Override
            public void close() {
                keys.withdrawLocal(issued.principal().keyId());
            }
        };
    }

}
