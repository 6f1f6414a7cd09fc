package io.chainfeed.api.chain;

import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.SqueezedCompany;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JSON views of {@link LayerState}: enums in lower case, instants as ISO-8601 UTC,
 * {@code asOf} null before the first signal. Every view is bounded whatever the number of
 * signals: a layer lists at most its 20 largest causes (the chain summary
 * {@value #SUMMARY_CAUSES}), sums the rest in {@code otherCauses} and links the full,
 * paged list ({@code causesUrl}).
 */
public final class ChainViews {

    /** Causes each layer lists in the chain summary ({@code GET /api/v1/chain}). */
    public static final int SUMMARY_CAUSES = 5;

    private ChainViews() {
    }

    /**
     * The compact view of a layer for the whole chain: at most {@value #SUMMARY_CAUSES}
     * causes and the number of squeezed companies ({@code squeezedCompanyCount}) instead
     * of their list.
     * @param s a layer state
     * @return its JSON view (a mutable map)
     */
    public static Map<String, Object> summary(LayerState s) {
        Map<String, Object> m = layer(s, SUMMARY_CAUSES);
        m.remove("squeezedCompanies");
        m.put("squeezedCompanyCount", s.getSqueezed().size());
        return m;
    }

    /**
     * @param s a layer state
     * @return its JSON view (a mutable map)
     */
    public static Map<String, Object> layer(LayerState s) {
        return layer(s, Integer.MAX_VALUE);
    }

    /**
     * The head of every layer view, which the widgets show alone.
     * @param s a layer state
     * @return id, name, status and trend (lower case), pressure (a mutable map)
     */
    public static Map<String, Object> brief(LayerState s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.getId());
        m.put("name", s.getName());
        m.put("status", s.getStatus().name().toLowerCase(Locale.ROOT));
        m.put("trend", s.getTrend().name().toLowerCase(Locale.ROOT));
        m.put("pressure", s.getPressure());
        return m;
    }

    private static Map<String, Object> layer(LayerState s, int causes) {
        Map<String, Object> m = brief(s);
        m.put("directPressure", s.getDirectPressure());
        m.put("squeezeReceived", s.getSqueezeReceived());
        m.put("squeezed", s.getSqueezeReceived() > 0);
        m.put("squeezedBy", s.getSqueezedBy().stream().map(Squeeze::of).toList());
        List<SignalCause> listed = s.getCauses().subList(0, Math.min(causes, s.getCauses().size()));
        m.put("causes", listed.stream().map(ChainViews::cause).toList());
        List<SignalCause> cut = s.getCauses().subList(listed.size(), s.getCauses().size());
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("count", s.getOtherCauseCount() + cut.size());
        other.put("total",
                round(s.getOtherCauseTotal() + cut.stream().mapToDouble(SignalCause::getContribution).sum()));
        m.put("otherCauses", other);
        m.put("causesUrl", "/api/v1/layers/" + URLEncoder.encode(s.getId(), StandardCharsets.UTF_8) + "/causes");
        m.put("owners", s.getOwners().stream().map(Owner::of).toList());
        m.put("squeezedCompanies", s.getSqueezed().stream().map(Squeezed::of).toList());
        m.put("signalCount", s.getSignalCount());
        m.put("asOf", asOf(s));
        return m;
    }

    /**
     * @param s a layer state
     * @return its {@code asOf} as ISO-8601, or null while no signal exists (the model's
     * epoch 0)
     */
    public static String asOf(LayerState s) {
        return s.getAsOf().toEpochMilli() == 0 ? null : s.getAsOf().toString();
    }

    /**
     * A layer that squeezes another: its id, the pressure it passes on, and how many
     * edges away it is.
     */
    record Squeeze(String layer, double amount, int hops) {
        static Squeeze of(SqueezeSource s) {
            return new Squeeze(s.getLayerId(), s.getAmount(), s.getHops());
        }
    }

    /** A company that owns a layer. */
    record Owner(String id, String name, String symbol) {
        static Owner of(LayerCompany c) {
            return new Owner(c.getCompanyId(), c.getName(), c.getSymbol());
        }
    }

    /**
     * A company squeezed through a tight layer upstream of one it owns, with the signal
     * ids behind it.
     */
    record Squeezed(String id, String name, String symbol, String viaLayer, int hops, List<String> causes) {
        static Squeezed of(SqueezedCompany q) {
            LayerCompany c = q.getCompany();
            return new Squeezed(c.getCompanyId(), c.getName(), c.getSymbol(), q.getViaLayer(), q.getHops(),
                    q.getCauses());
        }
    }

    /** Where a signal comes from. */
    record Source(String name, String url) {
    }

    /**
     * @param c a cause from a page of {@link ChainCauseIndex}
     * @return its JSON view, as the causes of a layer view
     */
    public static Map<String, Object> cause(ChainCauseIndex.Cause c) {
        return cause(SignalCause.newBuilder()
            .setSignalId(c.cause().getSignalId())
            .setHeadline(c.cause().getHeadline())
            .setDirection(c.cause().getDirection())
            .setOriginLayer(c.originLayer())
            .setHops(c.hops())
            .setContribution(round(c.contribution()))
            .setUntil(c.cause().getUntil() == null ? null : c.cause().getUntil().toEpochMilli())
            .build());
    }

    private static double round(double v) {
        double r = Math.round(v * 10_000d) / 10_000d;
        return r == 0 ? 0.0 : r;
    }

    /**
     * @param c a cause as listed in a layer state
     * @return its JSON view: signalId, readId, headline, direction, originLayer, hops,
     * contribution and, when known, source (name, url) and until (the signal's horizon,
     * ISO-8601 UTC: it keeps its full weight until then)
     */
    public static Map<String, Object> cause(SignalCause c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("signalId", c.getSignalId());
        m.put("readId", "signal:" + c.getSignalId());
        m.put("headline", c.getHeadline());
        m.put("direction", c.getDirection().name().toLowerCase(Locale.ROOT));
        m.put("originLayer", c.getOriginLayer());
        m.put("hops", c.getHops());
        m.put("contribution", c.getContribution());
        if (c.getSource() != null) {
            m.put("source", new Source(c.getSource().getName(), c.getSource().getUrl()));
        }
        if (c.getUntil() != null) {
            m.put("until", Instant.ofEpochMilli(c.getUntil()).toString());
        }
        return m;
    }

}
