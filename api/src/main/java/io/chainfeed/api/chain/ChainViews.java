package io.chainfeed.api.chain;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.chainfeed.api.reads.ReadView;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.SqueezedCompany;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * JSON views of {@link LayerState}: enums in lower case, instants as ISO-8601 UTC,
 * {@code asOf} null before the first signal. Every view is bounded whatever the number of
 * signals: a layer lists at most its 20 largest causes (the chain summary
 * {@value #SUMMARY_CAUSES}), sums the rest in {@code otherCauses} and links the full,
 * paged list ({@code causesUrl}).
 */
public final class ChainViews {

    /** The line every chain, layer and company answer carries. */
    public static final String DISCLAIMER = "The chain model summarises public signals about supply and demand; "
            + "research, not advice.";

    /** Causes each layer lists in the chain summary ({@code GET /api/v1/chain}). */
    public static final int SUMMARY_CAUSES = 5;

    private ChainViews() {
    }

    /**
     * The compact view of a layer for the whole chain: at most {@value #SUMMARY_CAUSES}
     * causes and the number of squeezed companies ({@code squeezedCompanyCount}) instead
     * of their list.
     * @param s a layer state
     * @return its view
     */
    public static LayerSummary summary(LayerState s) {
        LayerView v = layer(s, SUMMARY_CAUSES);
        return new LayerSummary(v.id(), v.name(), v.status(), v.trend(), v.pressure(), v.directPressure(),
                v.squeezeReceived(), v.squeezed(), v.squeezedBy(), v.causes(), v.otherCauses(), v.causesUrl(),
                v.owners(), v.signalCount(), v.asOf(), s.getSqueezed().size());
    }

    /**
     * @param s a layer state
     * @return its full view
     */
    public static LayerView layer(LayerState s) {
        return layer(s, Integer.MAX_VALUE);
    }

    /**
     * The head of every layer view, which the widgets show alone.
     * @param s a layer state
     * @return id, name, status and trend (lower case), pressure
     */
    public static LayerBrief brief(LayerState s) {
        return new LayerBrief(s.getId(), s.getName(), s.getStatus().name().toLowerCase(Locale.ROOT),
                s.getTrend().name().toLowerCase(Locale.ROOT), s.getPressure());
    }

    private static LayerView layer(LayerState s, int causes) {
        LayerBrief b = brief(s);
        List<SignalCause> listed = s.getCauses().subList(0, Math.min(causes, s.getCauses().size()));
        List<SignalCause> cut = s.getCauses().subList(listed.size(), s.getCauses().size());
        OtherCauses other = new OtherCauses(s.getOtherCauseCount() + cut.size(),
                round(s.getOtherCauseTotal() + cut.stream().mapToDouble(SignalCause::getContribution).sum()));
        return new LayerView(b.id(), b.name(), b.status(), b.trend(), b.pressure(), s.getDirectPressure(),
                s.getSqueezeReceived(), s.getSqueezeReceived() > 0,
                s.getSqueezedBy().stream().map(Squeeze::of).toList(), listed.stream().map(ChainViews::cause).toList(),
                other, "/api/v1/layers/" + URLEncoder.encode(s.getId(), StandardCharsets.UTF_8) + "/causes",
                s.getOwners().stream().map(Owner::of).toList(), s.getSqueezed().stream().map(Squeezed::of).toList(),
                s.getSignalCount(), asOf(s));
    }

    /**
     * The head of a layer's state.
     *
     * @param id the layer's id
     * @param name its name
     * @param status loose, balanced, tight or critical
     * @param trend rising, falling or steady
     * @param pressure the layer's pressure (direct pressure plus squeeze received; 0 is
     * balanced, positive is tight)
     */
    public record LayerBrief(String id, String name, String status, String trend, double pressure) {
    }

    /**
     * A layer's state as the chain model computed it.
     *
     * @param id the layer's id
     * @param name its name
     * @param status loose, balanced, tight or critical
     * @param trend rising, falling or steady
     * @param pressure direct pressure plus squeeze received
     * @param directPressure the decayed sum of the signals naming the layer
     * @param squeezeReceived pressure passed on by tight layers upstream
     * @param squeezed whether any is received
     * @param squeezedBy the layers that pass it on
     * @param causes the largest causes, largest first (at most 20)
     * @param otherCauses how many more causes there are and their summed contribution
     * @param causesUrl the paged list of every cause; null as of a past instant
     * @param owners the companies that own the layer
     * @param squeezedCompanies companies squeezed through this layer
     * @param signalCount signals counted
     * @param asOf the instant of the state (UTC), null before the first signal
     */
    public record LayerView(String id, String name, String status, String trend, double pressure, double directPressure,
            double squeezeReceived, boolean squeezed, List<Squeeze> squeezedBy, List<Cause> causes,
            OtherCauses otherCauses, String causesUrl, List<Owner> owners, List<Squeezed> squeezedCompanies,
            long signalCount, String asOf) {

        /**
         * @return this view without the link to the live cause list (a past state)
         */
        public LayerView past() {
            return new LayerView(id, name, status, trend, pressure, directPressure, squeezeReceived, squeezed,
                    squeezedBy, causes, otherCauses, null, owners, squeezedCompanies, signalCount, asOf);
        }

    }

    /**
     * A layer's state in the whole chain's answer: {@link LayerView} with at most
     * {@value #SUMMARY_CAUSES} causes and a count of squeezed companies instead of their
     * list.
     *
     * @param id the layer's id
     * @param name its name
     * @param status loose, balanced, tight or critical
     * @param trend rising, falling or steady
     * @param pressure direct pressure plus squeeze received
     * @param directPressure the decayed sum of the signals naming the layer
     * @param squeezeReceived pressure passed on by tight layers upstream
     * @param squeezed whether any is received
     * @param squeezedBy the layers that pass it on
     * @param causes the largest causes, largest first
     * @param otherCauses how many more causes there are and their summed contribution
     * @param causesUrl the paged list of every cause; null as of a past instant
     * @param owners the companies that own the layer
     * @param signalCount signals counted
     * @param asOf the instant of the state (UTC), null before the first signal
     * @param squeezedCompanyCount how many companies are squeezed through the layer
     */
    public record LayerSummary(String id, String name, String status, String trend, double pressure,
            double directPressure, double squeezeReceived, boolean squeezed, List<Squeeze> squeezedBy,
            List<Cause> causes, OtherCauses otherCauses, String causesUrl, List<Owner> owners, long signalCount,
            String asOf, int squeezedCompanyCount) {

        /**
         * @return this view without the link to the live cause list (a past state)
         */
        public LayerSummary past() {
            return new LayerSummary(id, name, status, trend, pressure, directPressure, squeezeReceived, squeezed,
                    squeezedBy, causes, otherCauses, null, owners, signalCount, asOf, squeezedCompanyCount);
        }

    }

    /**
     * The causes a layer view does not list.
     *
     * @param count how many
     * @param total their summed contribution
     */
    public record OtherCauses(long count, double total) {
    }

    /**
     * A signal behind a layer's pressure.
     *
     * @param signalId the signal's id
     * @param readId its read's id ({@code signal:<id>})
     * @param headline its headline
     * @param direction tightening or easing
     * @param originLayer the layer the signal names
     * @param hops edges from that layer to this one (0: the layer itself)
     * @param contribution its share of the pressure now
     * @param source where it comes from; absent when unknown
     * @param until the signal's horizon (UTC): full weight until then; absent when none
     * @param share the factor the signal counts with in the layer it names: its segment's
     * share of that layer's market when it speaks of one segment (memory's {@code hbm}
     * 0.15, docs/chain-model.md), 1 for a signal about the whole layer
     */
    @Schema(name = "LayerCause")
    public record Cause(String signalId, String readId, String headline, String direction, String originLayer, int hops,
            double contribution, @JsonInclude(JsonInclude.Include.NON_NULL) ReadView.Source source,
            @JsonInclude(JsonInclude.Include.NON_NULL) String until,
            @Schema(minimum = "0", exclusiveMinimum = true, maximum = "1") double share) {
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
    public record Squeeze(String layer, double amount, int hops) {
        static Squeeze of(SqueezeSource s) {
            return new Squeeze(s.getLayerId(), s.getAmount(), s.getHops());
        }
    }

    /** A company that owns a layer. */
    public record Owner(String id, String name, String symbol) {
        static Owner of(LayerCompany c) {
            return new Owner(c.getCompanyId(), c.getName(), c.getSymbol());
        }
    }

    /**
     * A company squeezed through a tight layer upstream of one it owns, with the signal
     * ids behind it.
     */
    public record Squeezed(String id, String name, String symbol, String viaLayer, int hops, List<String> causes) {
        static Squeezed of(SqueezedCompany q) {
            LayerCompany c = q.getCompany();
            return new Squeezed(c.getCompanyId(), c.getName(), c.getSymbol(), q.getViaLayer(), q.getHops(),
                    q.getCauses());
        }
    }

    /**
     * @param c a cause from a page of {@link ChainCauseIndex}
     * @return its JSON view, as the causes of a layer view
     */
    public static Cause cause(ChainCauseIndex.Cause c) {
        return cause(SignalCause.newBuilder()
            .setSignalId(c.cause().getSignalId())
            .setHeadline(c.cause().getHeadline())
            .setDirection(c.cause().getDirection())
            .setOriginLayer(c.originLayer())
            .setHops(c.hops())
            .setContribution(round(c.contribution()))
            .setUntil(c.cause().getUntil() == null ? null : c.cause().getUntil().toEpochMilli())
            .setShare(c.cause().getShare())
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
     * ISO-8601 UTC: it keeps its full weight until then), and share (1 unless it speaks
     * of one segment of the layer it names)
     */
    public static Cause cause(SignalCause c) {
        return new Cause(c.getSignalId(), "signal:" + c.getSignalId(), c.getHeadline(),
                c.getDirection().name().toLowerCase(Locale.ROOT), c.getOriginLayer(), c.getHops(), c.getContribution(),
                c.getSource() == null ? null : new ReadView.Source(c.getSource().getName(), c.getSource().getUrl()),
                c.getUntil() == null ? null : Instant.ofEpochMilli(c.getUntil()).toString(), c.getShare());
    }

}
