package io.chainfeed.ingest.decide;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.RuleText.Field;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.RuleText.Vote;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Decides a constraint signal's relevance, layers, direction, magnitude and horizon from
 * its headline and body, offline and deterministically, and says which words decided each
 * value. The words are data: {@code cues.tsv} (direction, negation, reversal, hedge,
 * intensity and off-topic cues) and {@code layer-words.tsv} (product words per layer) in
 * this package's resources, plus the layer names and aliases, glossary terms and company
 * names of the reference data; so are the weights and thresholds,
 * {@code decider-weights.properties} beside them. The text is read once
 * ({@link RuleText}), then each value is one step: {@link RelevanceStep} (with
 * {@link LayerStep}), {@link DirectionStep}, {@link HorizonStep}, {@link MagnitudeStep}
 * and {@link ConfidenceStep}. The rules, the magnitude table and the measured figures are
 * in docs/decisions.md. Immutable and thread-safe.
 */
public final class SignalDecider implements TextDecider {

    private final PhraseLexicon<Cue> cues = new PhraseLexicon<>();

    /**
     * Negations, hedges and intensity words, matched on their own so that they count
     * inside a gap ("prices may rise").
     */
    private final PhraseLexicon<Cue> modifiers = new PhraseLexicon<>();

    private final PhraseLexicon<LayerWord> layerWords = new PhraseLexicon<>();

    private final RuleText text;

    private final LayerStep layers;

    private final RelevanceStep relevance;

    private final DirectionStep direction = new DirectionStep();

    private final HorizonStep horizon = new HorizonStep();

    private final MagnitudeStep magnitude;

    private final ConfidenceStep confidence;

    /** Every skip reason: the lexicon's off-topic reasons and the two fixed ones. */
    private final SortedSet<String> skipReasons = new TreeSet<>(List.of(NO_CONSTRAINT_WORDING, NO_CHAIN_LAYER));

    enum Kind {

        T, E, FLIP, NEG, HEDGE, UP, DOWN, CLAUSE, SKIP

    }

    /** The skip reason of an item with no supply-constraint wording. */
    static final String NO_CONSTRAINT_WORDING = "no supply-constraint wording";

    /**
     * The skip reason of an item whose constraint wording names no part of the AI chain.
     */
    static final String NO_CHAIN_LAYER = "names no part of the AI chain";

    /** One cue of cues.tsv. */
    record Cue(Kind kind, int magnitude, boolean condition, String reason, String phrase, boolean gap,
            Set<String> words) {
    }

    /** One phrase naming a layer. */
    record LayerWord(String layer, double weight, String rule) {
    }

    /**
     * @param layers chain layers (names and aliases name them)
     * @param companies companies (a name or alias names the company's primary layer)
     * @param terms glossary term titles and aliases, each to its layer id
     * @throws IllegalStateException when a word list or the weights file is missing, or a
     * weight is missing or malformed
     */
    public SignalDecider(List<ChainLayer> layers, List<Company> companies, Map<String, String> terms) {
        this(layers, companies, terms, DeciderWeights.bundled());
    }

    /**
     * @param layers chain layers (names and aliases name them)
     * @param companies companies (a name or alias names the company's primary layer)
     * @param terms glossary term titles and aliases, each to its layer id
     * @param weights the weights and thresholds every step reads
     * @throws IllegalStateException when a word list is missing, or a weight is missing
     * or malformed
     */
    SignalDecider(List<ChainLayer> layers, List<Company> companies, Map<String, String> terms, DeciderWeights weights) {
        RuleWords.readCues(cues, modifiers, skipReasons);
        double nameWeight = weights.number("layer.word.name");
        double termWeight = weights.number("layer.word.term");
        double companyWeight = weights.number("layer.word.company");
        for (ChainLayer l : layers) {
            LayerWord w = new LayerWord(l.getId(), nameWeight, "layer name");
            layerWords.add(l.getName(), w, false);
            l.getAliases().forEach(a -> layerWords.add(a, w, false));
        }
        RuleWords.readLayerWords(layerWords);
        terms.forEach((name, layer) -> layerWords.add(name, new LayerWord(layer, termWeight, "term"), false));
        for (Company c : companies) {
            if (c.getPrimaryLayer() == null) {
                continue;
            }
            LayerWord w = new LayerWord(c.getPrimaryLayer(), companyWeight, "company: " + c.getName());
            layerWords.add(c.getName(), w, true);
            c.getAliases().forEach(a -> layerWords.add(a, w, true));
        }
        this.text = new RuleText(cues, modifiers, layerWords, weights);
        this.layers = new LayerStep(weights);
        this.relevance = new RelevanceStep(this.layers, weights);
        this.magnitude = new MagnitudeStep(weights);
        this.confidence = new ConfidenceStep(weights);
    }

    /**
     * @param corpus the reference data (bundled or configured)
     * @return a decider over its layers, companies and terms
     * @throws IllegalStateException as {@link #SignalDecider(List, List, Map)}
     */
    public static SignalDecider of(Corpus corpus) {
        return of(corpus, DeciderWeights.bundled());
    }

    /**
     * @param corpus the reference data
     * @param weights the weights and thresholds every step reads
     * @return a decider over the corpus's layers, companies and terms
     * @throws IllegalStateException as
     * {@link #SignalDecider(List, List, Map, DeciderWeights)}
     */
    static SignalDecider of(Corpus corpus, DeciderWeights weights) {
        Map<String, String> terms = new LinkedHashMap<>();
        for (TermContent t : corpus.terms()) {
            if (t.layerHint() == null || t.layerHint().isBlank()) {
                continue;
            }
            terms.put(t.title(), t.layerHint());
            t.aliases().forEach(a -> terms.putIfAbsent(a, t.layerHint()));
        }
        return new SignalDecider(corpus.layers(), corpus.companies(), terms, weights);
    }

    /**
     * @param headline the signal's headline
     * @param body its body, may be empty
     * @param observedAt when it was observed (relative horizons count from it)
     * @return the decision, with evidence
     */
    @Override
    public Decision decide(String headline, String body, Instant observedAt) {
        return decide(text.parse(headline, body), observedAt);
    }

    /**
     * The rules' decision and what they saw, from one reading of the text (the learned
     * reader needs both).
     *
     * @param decision as {@link #decide}
     * @param seen as the reader's rule features take it
     */
    record Ruled(Decision decision, RuleReading seen) {
    }

    /**
     * @param headline the item's headline
     * @param body its body, may be empty
     * @param observedAt when it was observed (relative horizons count from it)
     * @return the decision and what the rules saw, the text tokenized and matched once
     */
    Ruled rule(String headline, String body, Instant observedAt) {
        Parsed parsed = text.parse(headline, body);
        return new Ruled(decide(parsed, observedAt), read(parsed));
    }

    /**
     * @param headline an item's headline, may be null
     * @param body its body, may be null
     * @return the item as every step reads it
     */
    Parsed parse(String headline, String body) {
        return text.parse(headline, body);
    }

    /**
     * The steps in turn: relevance (and layers), direction, horizon, magnitude (which
     * counts a long horizon), confidence.
     */
    private Decision decide(Parsed parsed, Instant observedAt) {
        RelevanceStep.Verdict verdict = relevance.decide(parsed);
        if (verdict.skipped() != null) {
            return verdict.skipped();
        }
        DirectionStep.Leaning leaning = direction.decide(parsed.votes());
        HorizonStep.Stated until = horizon.decide(parsed, leaning.agreeing(), observedAt);
        MagnitudeStep.Strength strength = magnitude.decide(parsed, leaning, until, observedAt);
        boolean hedged = strength.hedge() != null;
        double sure = confidence.decide(leaning, hedged, verdict.layers());
        List<Decision.Span> relevant = List.of(strength.lead().hit().span("supply wording"));
        return new Decision(true, null, leaning.direction(), strength.magnitude(), until.until(), verdict.layers(),
                sure, hedged, relevant, leaning.evidence(), strength.evidence(), until.evidence(), Decision.RULES,
                null);
    }

    private RuleReading read(Parsed parsed) {
        Field h = parsed.h();
        Field b = parsed.b();
        List<Vote> votes = parsed.votes();
        // the votes' signed and total weight, summed as the direction step sums them
        DirectionStep.Leaning leaning = direction.decide(votes);
        int inHeadline = (int) votes.stream().filter(v -> v.hit().inHeadline()).count();
        Map<String, Double> scores = new LinkedHashMap<>();
        layers.score(parsed).forEach(p -> scores.put(p.id(), p.score()));
        return new RuleReading(h.hits().stream().anyMatch(x -> x.cue().kind() == Kind.SKIP),
                b.hits().stream().anyMatch(x -> x.cue().kind() == Kind.SKIP), votes.size(), leaning.sum(),
                leaning.total(), inHeadline, hasKind(h, b, Kind.NEG), hasKind(h, b, Kind.HEDGE), scores);
    }

    private static boolean hasKind(Field h, Field b, Kind kind) {
        return h.hits().stream().anyMatch(x -> x.cue().kind() == kind)
                || b.hits().stream().anyMatch(x -> x.cue().kind() == kind);
    }

    /**
     * @return every reason {@link #decide} can give for skipping an item (the off-topic
     * reasons of {@code cues.tsv} and the two fixed ones), sorted: the label values of
     * {@code chainfeed_signals_skipped_total}
     */
    @Override
    public SortedSet<String> skipReasons() {
        return Collections.unmodifiableSortedSet(skipReasons);
    }

}
