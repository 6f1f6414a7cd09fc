package io.chainfeed.ingest.decide;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.RuleText.Field;
import io.chainfeed.ingest.decide.RuleText.Hit;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.RuleText.Vote;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
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
 * names of the reference data. The rules, the magnitude table and the measured figures
 * are in docs/decisions.md. Immutable and thread-safe.
 */
public final class SignalDecider implements TextDecider {

    /** Words between a negation and the cue it reverses, at most. */
    static final int NEG_WINDOW = 4;

    /** Words between a condition and the change that reverses it, at most. */
    static final int FLIP_WINDOW = 5;

    /** Headline cues weigh this much more than body cues. */
    static final double HEADLINE_WEIGHT = 2.0;

    /**
     * The top layer must score at least this: one weak word in the body, away from any
     * cue, is not enough.
     */
    static final double MIN_LAYER_SCORE = 3.0;

    private final PhraseLexicon<Cue> cues = new PhraseLexicon<>();

    /**
     * Negations, hedges and intensity words, matched on their own so that they count
     * inside a gap ("prices may rise").
     */
    private final PhraseLexicon<Cue> modifiers = new PhraseLexicon<>();

    private final PhraseLexicon<LayerWord> layerWords = new PhraseLexicon<>();

    private final RuleText text = new RuleText(cues, modifiers, layerWords);

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
     */
    public SignalDecider(List<ChainLayer> layers, List<Company> companies, Map<String, String> terms) {
        RuleWords.readCues(cues, modifiers, skipReasons);
        for (ChainLayer l : layers) {
            LayerWord w = new LayerWord(l.getId(), 3, "layer name");
            layerWords.add(l.getName(), w, false);
            l.getAliases().forEach(a -> layerWords.add(a, w, false));
        }
        RuleWords.readLayerWords(layerWords);
        terms.forEach((name, layer) -> layerWords.add(name, new LayerWord(layer, 2, "term"), false));
        for (Company c : companies) {
            if (c.getPrimaryLayer() == null) {
                continue;
            }
            LayerWord w = new LayerWord(c.getPrimaryLayer(), 1.5, "company: " + c.getName());
            layerWords.add(c.getName(), w, true);
            c.getAliases().forEach(a -> layerWords.add(a, w, true));
        }
    }

    /**
     * @param corpus the reference data (bundled or configured)
     * @return a decider over its layers, companies and terms
     */
    public static SignalDecider of(Corpus corpus) {
        Map<String, String> terms = new LinkedHashMap<>();
        for (TermContent t : corpus.terms()) {
            if (t.layerHint() == null || t.layerHint().isBlank()) {
                continue;
            }
            terms.put(t.title(), t.layerHint());
            t.aliases().forEach(a -> terms.putIfAbsent(a, t.layerHint()));
        }
        return new SignalDecider(corpus.layers(), corpus.companies(), terms);
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

    private Decision decide(Parsed parsed, Instant observedAt) {
        Field h = parsed.h();
        Field b = parsed.b();
        List<Vote> votes = parsed.votes();

        // relevance: an off-topic headline without supply wording, or no supply wording
        // at all
        Hit skipHit = h.hits().stream().filter(x -> x.cue().kind() == Kind.SKIP).findFirst().orElse(null);
        boolean headlineDirectional = votes.stream().anyMatch(v -> v.hit().field().equals("headline"));
        if (skipHit != null && !headlineDirectional) {
            return skip(skipHit.cue().reason(), List.of(skipHit.span("off-topic: " + skipHit.cue().reason())));
        }
        if (votes.isEmpty()) {
            Hit any = b.hits().stream().filter(x -> x.cue().kind() == Kind.SKIP).findFirst().orElse(null);
            return any != null ? skip(any.cue().reason(), List.of(any.span("off-topic: " + any.cue().reason())))
                    : skip(NO_CONSTRAINT_WORDING, List.of());
        }
        List<Decision.LayerPick> layers = layers(h, b, votes);
        if (layers.isEmpty() || layers.get(0).score() < MIN_LAYER_SCORE) {
            return skip(NO_CHAIN_LAYER, votes.stream().map(v -> v.hit().span("supply wording")).toList());
        }

        // direction: signed weights, headline counted double
        double sum = 0;
        double total = 0;
        double headlineSum = 0;
        for (Vote v : votes) {
            sum += v.sign() * v.weight();
            total += v.weight();
            if (v.hit().field().equals("headline")) {
                headlineSum += v.sign() * v.weight();
            }
        }
        int sign = sum > 0 ? 1 : sum < 0 ? -1 : headlineSum < 0 ? -1 : 1;
        Direction direction = sign > 0 ? Direction.TIGHTENING : Direction.EASING;
        List<Vote> agreeing = votes.stream().filter(v -> v.sign() == sign).toList();
        List<Decision.Span> directionEvidence = new ArrayList<>();
        agreeing.forEach(v -> directionEvidence.addAll(v.spans()));

        // magnitude: the strongest agreeing cue, then the modifiers of its sentence
        Vote lead = agreeing.stream()
            .max(Comparator.comparingInt(Vote::magnitude).thenComparingDouble(Vote::weight))
            .orElseThrow();
        List<Decision.Span> magnitudeEvidence = new ArrayList<>();
        int magnitude = lead.magnitude();
        magnitudeEvidence.add(lead.hit()
            .span("base " + lead.magnitude() + ": " + lead.hit().cue().phrase
                    + (lead.magnitude() < lead.hit().cue().magnitude ? " (reversed: one less)" : "")));
        Field lf = lead.hit().field().equals("headline") ? h : b;
        Hit up = RuleText.modifier(lf, lead.hit(), Kind.UP);
        if (up != null) {
            magnitude++;
            magnitudeEvidence.add(up.span("+1 intensifier"));
        }
        Hit down = RuleText.modifier(lf, lead.hit(), Kind.DOWN);
        if (down != null) {
            magnitude--;
            magnitudeEvidence.add(down.span("-1 diminisher"));
        }
        Hit hedge = RuleText.modifier(lf, lead.hit(), Kind.HEDGE);
        if (hedge != null) {
            magnitude--;
            magnitudeEvidence.add(hedge.span("-1 hedge"));
        }

        // horizon: the first stated in a sentence with an agreeing cue, headline first
        Horizons.Horizon horizon = null;
        Field horizonField = null;
        for (Vote v : agreeing) {
            Field f = v.hit().field().equals("headline") ? h : b;
            int s = v.hit().sentence();
            int from = s == 0 ? 0 : f.sentenceEnds()[s - 1];
            Horizons.Horizon found = Horizons.find(f.text(), from, f.sentenceEnds()[s], observedAt);
            if (found != null) {
                horizon = found;
                horizonField = f;
                break;
            }
        }
        List<Decision.Span> untilEvidence = new ArrayList<>();
        Instant until = null;
        if (horizon != null) {
            until = horizon.until();
            untilEvidence.add(new Decision.Span(horizonField.name(), horizon.start(), horizon.end() - horizon.start(),
                    horizonField.text().substring(horizon.start(), horizon.end()), "horizon: " + horizon.rule()));
            if (sign > 0 && Duration.between(observedAt, until).toDays() > 366) {
                magnitude++;
                magnitudeEvidence.add(untilEvidence.get(0).withRule("+1 horizon over a year"));
            }
        }
        magnitude = Math.max(1, Math.min(5, magnitude));

        // confidence
        double agreement = total == 0 ? 0 : Math.abs(sum) / total;
        double confidence = 0.5 + 0.4 * agreement
                + (agreeing.stream().anyMatch(v -> v.hit().field().equals("headline")) ? 0.1 : 0);
        if (hedge != null) {
            confidence -= 0.3;
        }
        boolean companyOnly = layers.get(0).evidence().stream().allMatch(s -> s.rule().startsWith("company"));
        if (companyOnly) {
            confidence -= 0.15;
        }
        confidence = Decision.roundConfidence(confidence);
        List<Decision.Span> relevance = List.of(lead.hit().span("supply wording"));
        return new Decision(true, null, direction, magnitude, until, layers, confidence, hedge != null, relevance,
                directionEvidence, magnitudeEvidence, untilEvidence, Decision.RULES, null);
    }

    private static RuleReading read(Parsed parsed) {
        Field h = parsed.h();
        Field b = parsed.b();
        List<Vote> votes = parsed.votes();
        double sum = 0;
        double total = 0;
        int inHeadline = 0;
        for (Vote v : votes) {
            sum += v.sign() * v.weight();
            total += v.weight();
            inHeadline += v.hit().field().equals("headline") ? 1 : 0;
        }
        Map<String, Double> scores = new LinkedHashMap<>();
        layers(h, b, votes).forEach(p -> scores.put(p.id(), p.score()));
        return new RuleReading(h.hits().stream().anyMatch(x -> x.cue().kind() == Kind.SKIP),
                b.hits().stream().anyMatch(x -> x.cue().kind() == Kind.SKIP), votes.size(), sum, total, inHeadline,
                hasKind(h, b, Kind.NEG), hasKind(h, b, Kind.HEDGE), scores);
    }

    private static boolean hasKind(Field h, Field b, Kind kind) {
        return h.hits().stream().anyMatch(x -> x.cue().kind() == kind)
                || b.hits().stream().anyMatch(x -> x.cue().kind() == kind);
    }

    private static Decision skip(String reason, List<Decision.Span> evidence) {
        return new Decision(false, reason, null, 0, null, List.of(), 1.0, false, evidence, List.of(), List.of(),
                List.of(), Decision.RULES, null);
    }

    /**
     * Scores each layer named: its phrase weight, times 3 in the headline, times 2 in a
     * sentence with a direction cue; plus twice the weight (headline: six times) for the
     * layer word right beside a cue (at most one word between) or once (three times)
     * within four words; twice (six times) again for the object of a cue ("a shortage of
     * X", "waits for X": "of" or "for" just before it, within six words after the cue);
     * once (three times) again for the word that names a condition's thing ("HBM
     * shortage", "CoWoS crunch"); the first layer the headline names counts half as much
     * again there.
     */
    private static List<Decision.LayerPick> layers(Field h, Field b, List<Vote> votes) {
        Map<String, double[]> scores = new LinkedHashMap<>();
        Map<String, List<Decision.Span>> evidence = new LinkedHashMap<>();
        for (Field f : List.of(h, b)) {
            boolean firstInHeadline = f.name().equals("headline");
            for (PhraseLexicon.Match<LayerWord> m : f.layers()) {
                TextAnalysis.Token first = f.tokens().get(m.first());
                TextAnalysis.Token last = f.tokens().get(m.last());
                int sentence = first.sentence();
                boolean cueSentence = votes.stream()
                    .anyMatch(v -> v.hit().field().equals(f.name()) && v.hit().sentence() == sentence);
                double fieldFactor = f.name().equals("headline") ? 3 : 1;
                double s = m.value().weight() * fieldFactor * (cueSentence ? 2 : 1);
                int distance = votes.stream()
                    .filter(v -> v.hit().field().equals(f.name()) && v.hit().sentence() == sentence)
                    .mapToInt(v -> Math.max(v.hit().first() - m.last(), m.first() - v.hit().last()) - 1)
                    .min()
                    .orElse(Integer.MAX_VALUE);
                if (distance <= 1) {
                    s += 2 * m.value().weight() * fieldFactor;
                }
                else if (distance <= 4) {
                    s += m.value().weight() * fieldFactor;
                }
                boolean modifier = votes.stream()
                    .anyMatch(v -> v.hit().field().equals(f.name()) && v.hit().cue().condition
                            && v.hit().first() == m.last() + 1);
                if (modifier) {
                    s += m.value().weight() * fieldFactor;
                }
                if (objectOfCue(f, m, votes)) {
                    s += 2 * m.value().weight() * fieldFactor;
                }
                if (m.value().weight() == 0) {
                    continue;
                }
                if (firstInHeadline) {
                    s *= 1.5;
                    firstInHeadline = false;
                }
                scores.computeIfAbsent(m.value().layer(), k -> new double[1])[0] += s;
                evidence.computeIfAbsent(m.value().layer(), k -> new ArrayList<>())
                    .add(new Decision.Span(f.name(), first.start(), last.end() - first.start(),
                            f.text().substring(first.start(), last.end()), m.value().rule()));
            }
        }
        if (scores.isEmpty()) {
            return List.of();
        }
        double top = scores.values().stream().mapToDouble(a -> a[0]).max().orElse(0);
        List<Decision.LayerPick> out = new ArrayList<>();
        scores.forEach((id, s) -> out
            .add(new Decision.LayerPick(id, s[0] >= 0.9 * top, Math.round(s[0] * 100) / 100.0, evidence.get(id))));
        out.sort(Comparator.comparing((Decision.LayerPick p) -> !p.primary()).thenComparing(p -> -p.score()));
        return out;
    }

    /**
     * Whether a layer match is the object of a cue: "of" before it (at most two words
     * between) within six words after the cue ("a shortage of X"), or "for" right after
     * the cue and X within three words of it ("scramble for X", "waits for X"; not
     * "lengthens for data centers", where the cue is further away).
     */
    private static boolean objectOfCue(Field f, PhraseLexicon.Match<LayerWord> m, List<Vote> votes) {
        int sentence = f.tokens().get(m.first()).sentence();
        for (Vote v : votes) {
            if (!v.hit().field().equals(f.name()) || v.hit().sentence() != sentence || v.hit().last() >= m.first()) {
                continue;
            }
            int after = v.hit().last() + 1;
            if (after < m.first() && f.tokens().get(after).lower().equals("for") && m.first() - after <= 3) {
                return true;
            }
            if (m.first() - v.hit().last() <= 6) {
                for (int k = m.first() - 1; k >= Math.max(after, m.first() - 3); k--) {
                    if (f.tokens().get(k).lower().equals("of")) {
                        return true;
                    }
                }
            }
        }
        return false;
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
