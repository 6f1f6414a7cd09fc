package io.chainfeed.streams.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.SignalPart;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.streams.tagging.Tagger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a constraint signal into a tagged {@link Read} of kind SIGNAL, id
 * {@code signal:<id>}: the signal is shaped as a term update (headline as title, body as
 * a section, the first layer hint as the declared layer) and tagged by the same
 * {@link Tagger} as terms; further layer hints are added as declared layers. Immutable;
 * build a new one when reference data changes.
 */
public final class SignalReads {

    /** The disclaimer every signal read carries. */
    public static final String DISCLAIMER = "A signal is one observation of supply and demand on the chain, shown for context only \u2014 research, not advice.";

    private final Tagger tagger;

    private final Map<String, ChainLayer> layers = new LinkedHashMap<>();

    /**
     * @param layers chain layers
     * @param companies companies
     * @param terms glossary terms, so a signal naming one (HBM, CoWoS) is tagged with it
     */
    public SignalReads(Collection<ChainLayer> layers, Collection<Company> companies, Collection<TermUpdate> terms) {
        this.tagger = Tagger.build(layers, companies, terms);
        layers.forEach(l -> this.layers.put(l.getId(), l));
    }

    /**
     * @return the read id of a signal id: {@code signal:<id>}
     */
    public static String readId(String signalId) {
        return "signal:" + signalId;
    }

    /**
     * @param signal a signal
     * @return its tagged read; version is the signal's version, updatedAt and observedAt
     * when the signal was observed
     */
    public Read read(ConstraintSignal signal) {
        String direction = signal.getDirection().name().toLowerCase(Locale.ROOT);
        List<Section> sections = new ArrayList<>();
        if (!signal.getBody().isBlank()) {
            sections.add(new Section("body", "What was observed", signal.getBody()));
        }
        boolean held = signal.getDecision() != null && signal.getDecision().getHeld();
        sections.add(new Section("signal", "Signal", "A " + direction + " signal of magnitude " + signal.getMagnitude()
                + " (1-5), observed " + signal.getObservedAt() + "."
                + (signal.getDecision() != null && "text".equals(signal.getDecision().getDecidedBy())
                        ? " Decided from its text (confidence " + signal.getDecision().getConfidence() + ")." : "")
                + (held ? " Held for review: not counted in the chain until an editor confirms it." : "")));
        TermUpdate shaped = TermUpdate.newBuilder()
            .setSlug(signal.getId())
            .setTitle(signal.getHeadline())
            .setDefinition(signal.getBody().isBlank() ? signal.getHeadline() : firstSentence(signal.getBody()))
            .setSections(sections)
            .setLayerHint(signal.getLayerHints().isEmpty() ? null : signal.getLayerHints().get(0))
            .setSources(List.of(signal.getSource()))
            .setDisclaimer(DISCLAIMER)
            .setOrigin("signal")
            .setVersion(signal.getVersion())
            .setUpdatedAt(signal.getObservedAt())
            .build();
        Read read = tagger.tag(shaped);
        List<LayerTag> tags = new ArrayList<>(read.getLayers());
        for (String hint : signal.getLayerHints()
            .subList(Math.min(1, signal.getLayerHints().size()), signal.getLayerHints().size())) {
            ChainLayer layer = layers.get(hint);
            if (layer == null || tags.stream().anyMatch(t -> t.getId().equals(hint) && t.getPrimary())) {
                continue;
            }
            tags.removeIf(t -> t.getId().equals(hint));
            tags.add(countPrimary(tags),
                    LayerTag.newBuilder()
                        .setId(hint)
                        .setName(layer.getName())
                        .setConfidence(1.0)
                        .setPrimary(true)
                        .setEvidence(List.of(new Evidence("declared-layer", "metadata", -1, -1, hint)))
                        .build());
        }
        read.setLayers(tags);
        read.setId(readId(signal.getId()));
        read.setKind(ReadKind.SIGNAL);
        read.setSlug(signal.getId());
        read.setObservedAt(signal.getObservedAt());
        read.setSignal(SignalPart.newBuilder()
            .setDirection(direction)
            .setMagnitude(signal.getMagnitude())
            .setUntil(signal.getUntil())
            .setDecision(signal.getDecision())
            .build());
        return read;
    }

    private static int countPrimary(List<LayerTag> tags) {
        int n = 0;
        while (n < tags.size() && tags.get(n).getPrimary()) {
            n++;
        }
        return n;
    }

    private static String firstSentence(String body) {
        int end = body.indexOf(". ");
        String s = end < 0 ? body : body.substring(0, end + 1);
        return s.length() > 300 ? s.substring(0, 297) + "..." : s;
    }

}
