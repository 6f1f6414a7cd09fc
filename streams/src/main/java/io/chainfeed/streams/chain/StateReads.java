package io.chainfeed.streams.chain;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.chain.ChainModel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Announces changes of a chain layer's status as reads of kind STATE, id
 * {@code state:<layer id>:<n>} (the n-th announced change of that layer, from 1).
 *
 * <p>
 * <b>Hysteresis.</b> The announced status follows the published pressure with a margin of
 * {@value #HYSTERESIS}: it moves up to a higher status only once the pressure is at least
 * the margin past that status's lower threshold, and down only once the pressure is more
 * than the margin below the current status's lower threshold (TIGHT is announced from
 * 3.25 and left below 2.75). A pressure wobbling within ± {@value #HYSTERESIS} of a
 * threshold therefore announces nothing after its first crossing; a layer's published
 * {@code status} (no margin) can differ from its announced one while inside the band.
 * Every layer starts announced as BALANCED (no signal, pressure 0).
 *
 * <p>
 * The read names the layer (its only layer tag, primary), the pressure before and after,
 * the top causes with their sources (as sections, sources and the layer tag's evidence),
 * the owners (primary company tags) and the squeezed companies (passing company tags),
 * and carries {@link #DISCLAIMER}. Immutable; build a new one when reference data
 * changes.
 */
public final class StateReads {

    /**
     * How far past a threshold the pressure must be before a change of status is
     * announced.
     */
    public static final double HYSTERESIS = 0.25;

    /** The disclaimer every state read carries. */
    public static final String DISCLAIMER = "A state change is chainfeed's model of supply and demand on the chain, "
            + "computed from the signals it lists and shown for context only \u2014 research, not advice.";

    /** Most causes a state read lists. */
    static final int CAUSES = 5;

    /** Most squeezed companies named in the text (all are tagged). */
    private static final int SQUEEZED_NAMED = 30;

    private final Map<String, Company> companies = new TreeMap<>();

    /**
     * @param companies the companies (for the listing's MIC of owners and squeezed
     * companies)
     */
    public StateReads(Collection<Company> companies) {
        companies.forEach(c -> this.companies.put(c.getId(), c));
    }

    /**
     * The announced status after a published pressure, with the hysteresis margin.
     * @param pressure the published pressure
     * @param announced the status announced so far
     * @return the status to announce now (equal to {@code announced} when nothing is to
     * be said)
     */
    public static LayerStatus announce(double pressure, LayerStatus announced) {
        LayerStatus up = ChainModel.status(pressure - HYSTERESIS);
        if (up.ordinal() > announced.ordinal()) {
            return up;
        }
        LayerStatus down = ChainModel.status(pressure + HYSTERESIS);
        return down.ordinal() < announced.ordinal() ? down : announced;
    }

    /**
     * @param layerId a layer id
     * @param n the number of the announced change, from 1
     * @return {@code state:<layerId>:<n>}
     */
    public static String readId(String layerId, long n) {
        return "state:" + layerId + ":" + n;
    }

    /**
     * What a layer has announced so far, as kept in the chain-state topology's store.
     *
     * @param status the announced status
     * @param count how many changes were announced (the n of the last read id; 0 for
     * none)
     */
    public record Announced(LayerStatus status, long count) {
        /** The state of a layer that never announced anything. */
        public static final Announced NONE = new Announced(LayerStatus.BALANCED, 0);

        /**
         * @return {@code <STATUS> <count>}
         */
        public String encode() {
            return status.name() + " " + count;
        }

        /**
         * @param text an {@link #encode}d value, or null
         * @return the value; {@link #NONE} for null
         * @throws IllegalArgumentException if the text is not an encoded value
         */
        public static Announced parse(String text) {
            if (text == null) {
                return NONE;
            }
            String[] p = text.split(" ", 2);
            if (p.length != 2) {
                throw new IllegalArgumentException("not an announced state: " + text);
            }
            return new Announced(LayerStatus.valueOf(p[0]), Long.parseLong(p[1]));
        }
    }

    /**
     * Builds the read of one announced change.
     * @param before the layer's last published state, or null if none was
     * @param after its state now
     * @param from the status announced before
     * @param to the status announced now
     * @param n the number of this change (from 1)
     * @param publishedAt when it is published (wall clock, UTC): its version, updatedAt
     * and publishedAt
     * @return the read, not yet stamped by {@code ReadVersions} (sequence, changes)
     */
    public Read read(LayerState before, LayerState after, LayerStatus from, LayerStatus to, long n,
            Instant publishedAt) {
        String name = after.getName();
        double was = before == null ? 0.0 : before.getPressure();
        List<SignalCause> causes = after.getCauses().stream().limit(CAUSES).toList();
        Map<String, Source> sources = new LinkedHashMap<>();
        List<Evidence> evidence = new ArrayList<>();
        StringBuilder why = new StringBuilder();
        for (SignalCause c : causes) {
            Source src = c.getSource();
            String source = src == null ? "" : src.getName();
            if (src != null && !src.getUrl().isBlank()) {
                sources.putIfAbsent(src.getUrl(), src);
            }
            String line = c.getHeadline() + (source.isBlank() ? "" : " (" + source + ")") + ": "
                    + signed(c.getContribution()) + (c.getHops() == 0 ? "" : ", " + c.getHops()
                            + (c.getHops() == 1 ? " hop" : " hops") + " downstream of " + c.getOriginLayer());
            why.append(why.length() == 0 ? "" : "\n").append("- ").append(line);
            evidence.add(new Evidence("state-cause", "causes", -1, -1, line));
        }
        if (why.length() == 0) {
            why.append("No signal weighs on it any more.");
        }
        List<Section> sections = new ArrayList<>();
        sections.add(new Section("change", "What changed", name + " was " + word(from) + " at pressure " + fixed(was)
                + " and is now " + word(to) + " at " + fixed(after.getPressure()) + " (its own signals "
                + fixed(after.getDirectPressure()) + ", squeeze from upstream " + fixed(after.getSqueezeReceived())
                + "). Tight from " + fixed(ChainModel.TIGHT_FROM) + ", critical from " + fixed(ChainModel.CRITICAL_FROM)
                + ", loose at " + fixed(ChainModel.LOOSE_BELOW)
                + " or below; a change is announced once the pressure is " + fixed(HYSTERESIS) + " past a threshold."));
        sections.add(new Section("causes", "Why", why.toString()));
        List<CompanyTag> companyTags = new ArrayList<>();
        List<String> ownerNames = new ArrayList<>();
        for (LayerCompany o : after.getOwners()) {
            ownerNames.add(label(o));
            tag(o, true, "layer-owner", companyTags);
        }
        sections.add(new Section("owners", "Who owns it", ownerNames.isEmpty()
                ? "No company in the reference data sits in this layer." : String.join(", ", ownerNames) + "."));
        List<String> squeezedNames = new ArrayList<>();
        for (SqueezedCompany q : after.getSqueezed()) {
            if (squeezedNames.size() < SQUEEZED_NAMED) {
                squeezedNames.add(label(q.getCompany()) + " in " + q.getViaLayer());
            }
            tag(q.getCompany(), false, "squeezed-downstream", companyTags);
        }
        int more = after.getSqueezed().size() - squeezedNames.size();
        sections.add(new Section("squeezed", "Who is squeezed", squeezedNames.isEmpty()
                ? "No one: a layer squeezes the layers downstream of it only while its own pressure is tight or critical."
                : String.join(", ", squeezedNames) + (more > 0 ? " and " + more + " more" : "") + "."));
        String title = name + " turned " + word(to);
        String summary = "Pressure on " + name + " went from " + fixed(was) + " to " + fixed(after.getPressure())
                + (causes.isEmpty() ? "." : ", led by \u201c" + causes.get(0).getHeadline() + "\u201d.");
        LayerTag layerTag = LayerTag.newBuilder()
            .setId(after.getId())
            .setName(name)
            .setConfidence(1.0)
            .setPrimary(true)
            .setEvidence(evidence.isEmpty() ? List.of(new Evidence("state-change", "metadata", -1, -1, after.getId()))
                    : evidence)
            .build();
        return Read.newBuilder()
            .setId(readId(after.getId(), n))
            .setKind(ReadKind.STATE)
            .setSlug(after.getId())
            .setTitle(title)
            .setSummary(summary)
            .setSections(sections)
            .setLayers(List.of(layerTag))
            .setCompanies(companyTags)
            .setTerms(List.of())
            .setSources(new ArrayList<>(sources.values()))
            .setDisclaimer(DISCLAIMER)
            .setVersion(publishedAt.toEpochMilli())
            .setUpdatedAt(publishedAt)
            .setObservedAt(after.getAsOf())
            .build();
    }

    private void tag(LayerCompany c, boolean primary, String rule, List<CompanyTag> into) {
        if (into.stream().anyMatch(t -> t.getId().equals(c.getCompanyId()))) {
            return;
        }
        Company company = companies.get(c.getCompanyId());
        Listing listing = company == null || company.getListings().isEmpty() ? null : company.getListings().get(0);
        into.add(CompanyTag.newBuilder()
            .setId(c.getCompanyId())
            .setName(c.getName())
            .setSymbol(listing == null ? c.getSymbol() : listing.getDisplaySymbol())
            .setMic(listing == null ? "" : listing.getMic())
            .setConfidence(primary ? 1.0 : 0.5)
            .setPrimary(primary)
            .setEvidence(List.of(new Evidence(rule, "metadata", -1, -1, c.getName())))
            .build());
    }

    private static String label(LayerCompany c) {
        return c.getSymbol().isBlank() ? c.getName() : c.getName() + " (" + c.getSymbol() + ")";
    }

    private static String word(LayerStatus s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String signed(double v) {
        return (v >= 0 ? "+" : "") + String.format(Locale.ROOT, "%.2f", v);
    }

}
