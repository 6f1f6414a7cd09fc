package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import io.chainfeed.embeddings.SentenceEmbedder;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.liblinear.LibLinearClassificationTrainer;
import org.tribuo.classification.liblinear.LinearClassificationType;
import org.tribuo.datasource.ListDataSource;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Trains and measures the learned news reader by the protocol of docs/decisions.md ("A
 * learned reader beside the rules"): 10-fold cross-validation of every variant and cost
 * and relevance threshold on the training sets, the best kept, then its figures on each
 * held-out round beside the rules'. Deterministic: folds from a seeded shuffle,
 * LIBLINEAR's solver has no randomness.
 */
public final class ReaderTraining {

    /** Seed of the fold shuffle. */
    public static final long SEED = 38;

    /** Folds of the cross-validation. */
    public static final int FOLDS = 10;

    /** Costs tried for every regression (LIBLINEAR's C: higher fits the data harder). */
    static final double[] COSTS = { 0.1, 0.3, 1, 3, 10 };

    /** Under this rule confidence the rules-first variant asks the model. */
    static final double RULES_FIRST_BELOW = 0.6;

    /** The observed date of every labelled item (relative horizons count from it). */
    static final Instant OBSERVED = Instant.parse("2026-06-15T00:00:00Z");

    /** Training sets, in hashing order. */
    public static final List<String> TRAINING = List.of("eval.tsv", "train-2.tsv", "train-3.tsv", "train-4.tsv",
            "train-5.tsv", "train-6.tsv");

    /** Held-out rounds: never trained, tuned or selected on. */
    public static final List<String> HELD_OUT = List.of("heldout.tsv", "heldout-3.tsv", "heldout-4.tsv",
            "heldout-5.tsv", "heldout-6.tsv", "heldout-7.tsv");

    /**
     * Relevance thresholds tried: the probability at or above which an item is relevant.
     */
    static final double[] THRESHOLDS = { 0.5, 0.6, 0.7, 0.8 };

    /** Who decides an item. */
    public enum Variant {

        /** The rules alone. */
        RULES,
        /** The model on sentence embeddings alone. */
        MODEL,
        /** The model on sentence embeddings and the rules' features. */
        COMBINED,
        /** The model on words and the rules' features. */
        WORDS,
        /** The model on sentence embeddings, words and the rules' features. */
        ALL,
        /**
         * The model on words, the rules' features and the figures' moves (amendment 3).
         */
        FIGURES,
        /**
         * The rules, and the combined model where they skip for want of wording or layer
         * or decide with low confidence.
         */
        RULES_FIRST;

        ReaderFeatures.Inputs inputs() {
            return switch (this) {
                case MODEL -> ReaderFeatures.Inputs.EMBEDDINGS;
                case WORDS -> ReaderFeatures.Inputs.WORDS;
                case ALL -> ReaderFeatures.Inputs.ALL;
                case FIGURES -> ReaderFeatures.Inputs.FIGURES;
                default -> ReaderFeatures.Inputs.COMBINED;
            };
        }

    }

    /** What one reader decided of one item. */
    record Verdict(boolean relevant, Direction direction, String layer) {
    }

    /** An item with its vectors and the rules' view, computed once. */
    record Prepared(LabelledItem item, ReaderFeatures.Embedded embedded, Decision decided, RuleReading seen) {
    }

    /**
     * Figures of one reader on one set.
     *
     * @param items items
     * @param relevantItems relevant items
     * @param precision relevance precision
     * @param recall relevance recall
     * @param direction direction right over the relevant items (a skipped one is wrong)
     * @param layer primary layer right over the relevant items
     * @param perTag per tag: items right (relevance, and for relevant ones direction and
     * layer) and items
     */
    public record Figures(int items, int relevantItems, double precision, double recall, double direction, double layer,
            Map<String, int[]> perTag) {

        /** The choice criterion: mean of relevance F1, direction and layer. */
        double score() {
            double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
            return (f1 + direction + layer) / 3;
        }

        String row(String name) {
            return String.format(Locale.ROOT, "| %s | %d (%d) | %.3f | %.3f | %.3f | %.3f |", name, items,
                    relevantItems, precision, recall, direction, layer);
        }
    }

    private final SignalDecider decider;

    private final SentenceEmbedder embedder;

    /**
     * @param decider the rules
     * @param embedder the sentence embedder
     */
    public ReaderTraining(SignalDecider decider, SentenceEmbedder embedder) {
        this.decider = decider;
        this.embedder = embedder;
    }

    /**
     * Reads a labelled set and computes each item's vectors and rule view.
     * @param text the set's text (TSV, {@link LabelledItem#read})
     * @return its items, prepared
     */
    List<Prepared> prepare(String text) {
        List<Prepared> out = new ArrayList<>();
        for (LabelledItem it : LabelledItem.read(new StringReader(text))) {
            SignalDecider.Ruled ruled = decider.rule(it.headline(), it.body(), OBSERVED);
            out.add(new Prepared(it, ReaderFeatures.embed(embedder, it.headline(), it.body()), ruled.decision(),
                    ruled.seen()));
        }
        return out;
    }

    /**
     * Trains the three models on items.
     * @param items training items
     * @param inputs which features
     * @param cost LIBLINEAR's C
     * @param threshold the relevance threshold
     * @param version the version the reader carries
     * @return the trained reader
     */
    NewsReader train(List<Prepared> items, ReaderFeatures.Inputs inputs, double cost, double threshold,
            String version) {
        NewsReader shape = new NewsReader(null, null, null, inputs, version, threshold, embedder);
        LabelFactory factory = new LabelFactory();
        List<org.tribuo.Example<Label>> rel = new ArrayList<>();
        List<org.tribuo.Example<Label>> dir = new ArrayList<>();
        List<org.tribuo.Example<Label>> lay = new ArrayList<>();
        for (Prepared p : items) {
            var x = shape.example(p.embedded(), p.item().headline(), p.item().body(), p.decided(), p.seen());
            rel.add(relabel(x, p.item().relevant() ? NewsReader.RELEVANT : NewsReader.SKIP));
            if (p.item().relevant()) {
                dir.add(relabel(x, p.item().direction().name()));
                lay.add(relabel(x, p.item().layer()));
            }
        }
        LibLinearClassificationTrainer trainer = new LibLinearClassificationTrainer(
                new LinearClassificationType(LinearClassificationType.LinearType.L2R_LR), cost, 1000, 0.01);
        return new NewsReader(fit(trainer, factory, rel), fit(trainer, factory, dir), fit(trainer, factory, lay),
                inputs, version, threshold, embedder);
    }

    private static org.tribuo.Example<Label> relabel(org.tribuo.impl.ArrayExample<Label> x, String label) {
        List<org.tribuo.Feature> features = new ArrayList<>(x.size());
        x.forEach(features::add);
        return new org.tribuo.impl.ArrayExample<>(new Label(label), features);
    }

    private static Model<Label> fit(LibLinearClassificationTrainer trainer, LabelFactory factory,
            List<org.tribuo.Example<Label>> examples) {
        var source = new ListDataSource<>(examples, factory,
                new SimpleDataSourceProvenance("chainfeed labelled news items", factory));
        return trainer.train(new MutableDataset<>(source));
    }

    /**
     * @param variant who decides
     * @param reading the model's reading of the item (unused for {@link Variant#RULES})
     * @param threshold the relevance threshold
     * @param p the item
     * @return the variant's verdict
     */
    static Verdict verdict(Variant variant, NewsReader.Reading reading, double threshold, Prepared p) {
        Decision d = p.decided();
        Verdict rules = new Verdict(d.relevant(), d.direction(),
                d.relevant() && !d.layers().isEmpty() ? d.layers().get(0).id() : null);
        if (variant == Variant.RULES) {
            return rules;
        }
        if (variant == Variant.RULES_FIRST && rulesSettle(d)) {
            return rules;
        }
        return new Verdict(reading.relevance() >= threshold, reading.direction(), reading.layer());
    }

    /**
     * Whether the rules settle an item on their own: decided relevant with confidence at
     * least {@link #RULES_FIRST_BELOW}, or skipped for an off-topic cue.
     */
    static boolean rulesSettle(Decision d) {
        if (d.relevant()) {
            return d.confidence() >= RULES_FIRST_BELOW;
        }
        return !SignalDecider.NO_CONSTRAINT_WORDING.equals(d.skipReason())
                && !SignalDecider.NO_CHAIN_LAYER.equals(d.skipReason());
    }

    /**
     * @param items labelled items
     * @param verdicts a reader
     * @return its figures on them
     */
    static Figures score(List<Prepared> items, Function<Prepared, Verdict> verdicts) {
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int relevant = 0;
        int dirOk = 0;
        int layerOk = 0;
        Map<String, int[]> perTag = new TreeMap<>();
        for (Prepared p : items) {
            Verdict v = verdicts.apply(p);
            LabelledItem it = p.item();
            boolean ok;
            if (it.relevant()) {
                relevant++;
                tp += v.relevant() ? 1 : 0;
                fn += v.relevant() ? 0 : 1;
                boolean dir = v.relevant() && v.direction() == it.direction();
                boolean layer = v.relevant() && it.layer().equals(v.layer());
                dirOk += dir ? 1 : 0;
                layerOk += layer ? 1 : 0;
                ok = dir && layer;
            }
            else {
                fp += v.relevant() ? 1 : 0;
                ok = !v.relevant();
            }
            for (String tag : it.tags()) {
                int[] c = perTag.computeIfAbsent(tag, k -> new int[2]);
                c[0] += ok ? 1 : 0;
                c[1]++;
            }
        }
        return new Figures(items.size(), relevant, ratio(tp, tp + fp), ratio(tp, tp + fn), ratio(dirOk, relevant),
                ratio(layerOk, relevant), perTag);
    }

    /**
     * Cross-validates the models on some inputs: every item is read by a reader trained
     * on the other folds.
     * @param items training items
     * @param inputs which features
     * @param cost LIBLINEAR's C
     * @return each item's out-of-fold reading
     */
    Map<Prepared, NewsReader.Reading> outOfFold(List<Prepared> items, ReaderFeatures.Inputs inputs, double cost) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(SEED));
        Map<Prepared, NewsReader.Reading> readings = new LinkedHashMap<>();
        for (int fold = 0; fold < FOLDS; fold++) {
            List<Prepared> train = new ArrayList<>();
            List<Prepared> test = new ArrayList<>();
            for (int k = 0; k < order.size(); k++) {
                (k % FOLDS == fold ? test : train).add(items.get(order.get(k)));
            }
            NewsReader reader = train(train, inputs, cost, 0.5, "cv");
            test.forEach(p -> readings.put(p,
                    reader.read(p.embedded(), p.item().headline(), p.item().body(), p.decided(), p.seen())));
        }
        return readings;
    }

    /**
     * @param texts the training sets' texts, in {@link #TRAINING} order
     * @return {@code news-reader-} and the first 12 hex digits of their SHA-256
     */
    static String version(List<String> texts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String t : texts) {
                sha.update(t.getBytes(StandardCharsets.UTF_8));
            }
            return "news-reader-" + HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the protocol: cross-validates every variant and cost on the training sets,
     * keeps the best, trains it on all of them, scores it and the rules on each held-out
     * round, prints the tables and saves the reader.
     * @param sets the directory of the labelled sets
     * ({@code ingest/src/test/resources/decide})
     * @param out where to save the reader
     * ({@code ingest/src/main/resources/io/chainfeed/ingest/decide})
     * @param log where the tables go
     * @param crossValidationOnly stop after choosing: no held-out round read, nothing
     * written (to check the training sets without spending a look at the held-out rounds)
     * @return the kept reader, null when the rules won or only cross-validation was asked
     * @throws IOException when a set cannot be read or the reader cannot be written
     */
    public NewsReader run(Path sets, Path out, PrintStream log, boolean crossValidationOnly) throws IOException {
        List<String> trainingTexts = new ArrayList<>();
        List<Prepared> training = new ArrayList<>();
        for (String name : TRAINING) {
            String text = Files.readString(sets.resolve(name));
            trainingTexts.add(text);
            training.addAll(prepare(text));
        }
        String version = version(trainingTexts);
        log.printf(Locale.ROOT, "training sets %s: %d items; %d-fold cross-validation, seed %d; version %s%n", TRAINING,
                training.size(), FOLDS, SEED, version);
        log.println("| variant | C | threshold | items (relevant) | relevance P | relevance R | direction "
                + "| primary layer | score |");
        Variant bestVariant = Variant.RULES;
        double bestCost = 0;
        double bestThreshold = 0.5;
        Figures best = score(training, p -> verdict(Variant.RULES, null, 0, p));
        log.println(best.row("rules | - | -") + String.format(Locale.ROOT, " %.4f |", best.score()));
        for (ReaderFeatures.Inputs inputs : ReaderFeatures.Inputs.values()) {
            for (double c : COSTS) {
                Map<Prepared, NewsReader.Reading> readings = outOfFold(training, inputs, c);
                for (Variant v : Variant.values()) {
                    if (v == Variant.RULES || v.inputs() != inputs) {
                        continue;
                    }
                    for (double t : THRESHOLDS) {
                        Figures f = score(training, p -> verdict(v, readings.get(p), t, p));
                        log.println(f.row(v.name().toLowerCase(Locale.ROOT) + " | " + c + " | " + t)
                                + String.format(Locale.ROOT, " %.4f |", f.score()));
                        if (f.score() > best.score() + 1e-9) {
                            best = f;
                            bestVariant = v;
                            bestCost = c;
                            bestThreshold = t;
                        }
                    }
                }
            }
        }
        log.printf(Locale.ROOT, "kept: %s, C %s, relevance threshold %s (cross-validated score %.4f)%n", bestVariant,
                bestCost, bestThreshold, best.score());
        if (crossValidationOnly) {
            return null;
        }
        NewsReader reader = bestVariant == Variant.RULES ? null
                : train(training, bestVariant.inputs(), bestCost, bestThreshold, version);
        for (String name : HELD_OUT) {
            List<Prepared> round = prepare(Files.readString(sets.resolve(name)));
            Figures rules = score(round, p -> verdict(Variant.RULES, null, 0, p));
            log.println(rules.row(name + " rules"));
            if (reader != null) {
                Variant kept = bestVariant;
                double threshold = bestThreshold;
                Figures f = score(round,
                        p -> verdict(kept,
                                reader.read(p.embedded(), p.item().headline(), p.item().body(), p.decided(), p.seen()),
                                threshold, p));
                log.println(f.row(name + " " + kept.name().toLowerCase(Locale.ROOT)));
                f.perTag()
                    .forEach((tag, c) -> log.printf(Locale.ROOT, "  %s %s: %d/%d (rules %d/%d)%n", name, tag, c[0],
                            c[1], rules.perTag().get(tag)[0], rules.perTag().get(tag)[1]));
            }
        }
        if (reader != null) {
            Properties p = new Properties();
            p.setProperty("variant", bestVariant.name());
            p.setProperty("cost", String.valueOf(bestCost));
            p.setProperty("cvPrecision", String.format(Locale.ROOT, "%.4f", best.precision()));
            p.setProperty("cvRecall", String.format(Locale.ROOT, "%.4f", best.recall()));
            p.setProperty("cvDirection", String.format(Locale.ROOT, "%.4f", best.direction()));
            p.setProperty("cvLayer", String.format(Locale.ROOT, "%.4f", best.layer()));
            p.setProperty("trainingSets", String.join(",", TRAINING));
            p.setProperty("trainingItems", String.valueOf(training.size()));
            p.setProperty("embeddings", SentenceEmbedder.MODEL);
            p.setProperty("cvScore", String.format(Locale.ROOT, "%.4f", best.score()));
            reader.save(out, p);
        }
        return reader;
    }

    private static double ratio(int a, int b) {
        return b == 0 ? 1.0 : (double) a / b;
    }

}
