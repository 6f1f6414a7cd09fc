package io.chainfeed.ingest.decide;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The rules and the learned reader together, as chosen by cross-validation
 * (docs/decisions.md, "A learned reader"): the reader ({@link NewsReader}, which reads
 * the rules' features too) decides relevance, direction and primary layer; the rules
 * supply magnitude, horizon and the words behind them. Where the reader and the rules
 * agree the rules' evidence stands, and the confidence is the lower of the reader's and
 * the rules'; every decision of the reader also names the sentence that weighed most.
 * Thread-safe.
 */
public final class NewsDecider implements TextDecider {

    /** The skip reason when the reader, not the rules, finds no supply constraint. */
    public static final String READER_SKIP = "not a supply constraint (news reader)";

    /**
     * Magnitude of a signal the rules did not decide: the middle of the table's 1-5, less
     * one.
     */
    static final int READER_MAGNITUDE = 2;

    private final SignalDecider rules;

    private final NewsReader reader;

    private final SortedSet<String> skipReasons;

    /**
     * @param rules the rules (features, magnitude, horizon, evidence)
     * @param reader the learned reader
     */
    public NewsDecider(SignalDecider rules, NewsReader reader) {
        this.rules = rules;
        this.reader = reader;
        TreeSet<String> reasons = new TreeSet<>(rules.skipReasons());
        reasons.add(READER_SKIP);
        this.skipReasons = Collections.unmodifiableSortedSet(reasons);
    }

    /**
     * @return the learned reader's version
     */
    public String readerVersion() {
        return reader.version();
    }

    @Override
    public SortedSet<String> skipReasons() {
        return skipReasons;
    }

    @Override
    public Decision decide(String headline, String body, Instant observedAt) {
        String h = headline == null ? "" : headline;
        String b = body == null ? "" : body;
        SignalDecider.Ruled ruled = rules.rule(h, b, observedAt);
        NewsReader.Reading read = reader.read(h, b, ruled.decision(), ruled.seen());
        return combine(ruled.decision(), read, h, b, observedAt);
    }

    Decision combine(Decision ruled, NewsReader.Reading read, String headline, String body, Instant observedAt) {
        String version = reader.version();
        if (!read.relevant()) {
            List<Decision.Span> evidence = new ArrayList<>(ruled.relevant() ? List.of() : ruled.relevanceEvidence());
            evidence.add(read.weightiest());
            return new Decision(false, ruled.relevant() ? READER_SKIP : ruled.skipReason(), null, 0, null, List.of(),
                    Decision.roundConfidence(1 - read.relevance()), false, evidence, List.of(), List.of(), List.of(),
                    Decision.NEWS_READER, version);
        }
        boolean agrees = ruled.relevant() && ruled.direction() == read.direction();
        List<Decision.LayerPick> layers = new ArrayList<>();
        Decision.LayerPick ruledPick = ruled.layers()
            .stream()
            .filter(p -> p.id().equals(read.layer()))
            .findFirst()
            .orElse(null);
        layers.add(new Decision.LayerPick(read.layer(), true, ruledPick == null ? 0 : ruledPick.score(),
                ruledPick == null ? List.of(read.weightiest().withRule("news reader: layer " + read.layer()))
                        : ruledPick.evidence()));
        ruled.layers()
            .stream()
            .filter(p -> !p.id().equals(read.layer()))
            .forEach(p -> layers.add(new Decision.LayerPick(p.id(), false, p.score(), p.evidence())));
        List<Decision.Span> directionEvidence = new ArrayList<>(agrees ? ruled.directionEvidence() : List.of());
        directionEvidence.add(read.weightiest());
        int magnitude;
        List<Decision.Span> magnitudeEvidence;
        Instant until;
        List<Decision.Span> untilEvidence;
        if (agrees) {
            magnitude = ruled.magnitude();
            magnitudeEvidence = ruled.magnitudeEvidence();
            until = ruled.until();
            untilEvidence = ruled.untilEvidence();
        }
        else {
            magnitude = READER_MAGNITUDE;
            magnitudeEvidence = List.of(read.weightiest().withRule("base " + READER_MAGNITUDE + ": news reader"));
            Horizons.Horizon horizon = horizon(headline, observedAt);
            String field = "headline";
            String text = headline;
            if (horizon == null) {
                horizon = horizon(body, observedAt);
                field = "body";
                text = body;
            }
            until = horizon == null ? null : horizon.until();
            untilEvidence = horizon == null ? List.of()
                    : List.of(new Decision.Span(field, horizon.start(), horizon.end() - horizon.start(),
                            text.substring(horizon.start(), horizon.end()), "horizon: " + horizon.rule()));
        }
        List<Decision.Span> relevance = new ArrayList<>(ruled.relevant() ? ruled.relevanceEvidence() : List.of());
        relevance.add(read.weightiest());
        // the rules' doubts (mixed wording, a hedge, a company-only layer) still hold an
        // item they decided alike
        double confidence = agrees ? Math.min(read.confidence(), ruled.confidence()) : read.confidence();
        return new Decision(true, null, read.direction(), magnitude, until, layers,
                Decision.roundConfidence(confidence), ruled.hedged(), relevance, directionEvidence, magnitudeEvidence,
                untilEvidence, Decision.NEWS_READER, version);
    }

    private static Horizons.Horizon horizon(String text, Instant observedAt) {
        return text.isEmpty() ? null : Horizons.find(text, 0, text.length(), observedAt);
    }

}
