package io.chainfeed.api.chain;

import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.SqueezedCompany;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * JSON views of {@link LayerState}: enums in lower case, instants as ISO-8601 UTC, {@code asOf}
 * null before the first signal.
 */
public final class ChainViews {
    private ChainViews() {
    }

    /**
     * @param s a layer state
     * @return its JSON view (a mutable map)
     */
    public static Map<String, Object> layer(LayerState s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.getId());
        m.put("name", s.getName());
        m.put("status", s.getStatus().name().toLowerCase(Locale.ROOT));
        m.put("trend", s.getTrend().name().toLowerCase(Locale.ROOT));
        m.put("pressure", s.getPressure());
        m.put("directPressure", s.getDirectPressure());
        m.put("squeezeReceived", s.getSqueezeReceived());
        m.put("squeezed", s.getSqueezeReceived() > 0);
        m.put("squeezedBy", s.getSqueezedBy().stream().map(ChainViews::source).toList());
        m.put("causes", s.getCauses().stream().map(ChainViews::cause).toList());
        m.put("owners", s.getOwners().stream().map(ChainViews::company).toList());
        m.put("squeezedCompanies", s.getSqueezed().stream().map(ChainViews::squeezed).toList());
        m.put("signalCount", s.getSignalCount());
        m.put("asOf", asOf(s));
        return m;
    }

    /**
     * @param s a layer state
     * @return its {@code asOf} as ISO-8601, or null while no signal exists (the model's epoch 0)
     */
    public static String asOf(LayerState s) {
        return s.getAsOf().toEpochMilli() == 0 ? null : s.getAsOf().toString();
    }

    private static Map<String, Object> source(SqueezeSource s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("layer", s.getLayerId());
        m.put("amount", s.getAmount());
        return m;
    }

    private static Map<String, Object> cause(SignalCause c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("signalId", c.getSignalId());
        m.put("readId", "signal:" + c.getSignalId());
        m.put("headline", c.getHeadline());
        m.put("direction", c.getDirection().name().toLowerCase(Locale.ROOT));
        m.put("originLayer", c.getOriginLayer());
        m.put("hops", c.getHops());
        m.put("contribution", c.getContribution());
        return m;
    }

    private static Map<String, Object> company(LayerCompany c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.getCompanyId());
        m.put("name", c.getName());
        m.put("symbol", c.getSymbol());
        return m;
    }

    private static Map<String, Object> squeezed(SqueezedCompany q) {
        Map<String, Object> m = company(q.getCompany());
        m.put("viaLayer", q.getViaLayer());
        m.put("hops", q.getHops());
        m.put("causes", q.getCauses());
        return m;
    }
}
