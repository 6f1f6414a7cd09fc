package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import io.chainfeed.embeddings.SentenceEmbedder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.tribuo.classification.Label;
import org.tribuo.impl.ArrayExample;

/**
 * The learned reader's inputs for one news item: sentence embeddings of its text and what
 * the rules see in it, as named features (docs/decisions.md, "A learned reader").
 *
 * <p>
 * Embedding features: {@code h000..h383}, the headline's vector, and {@code b000..b383},
 * the mean of the body's sentence vectors (the headline's when the body is empty), each
 * component times {@link #EMBEDDING_SCALE} so that one L2 penalty suits them and the rule
 * features. Rule features ({@code r.*}, 0-1 or -1-1): the rules' decision (relevant,
 * direction, primary layer), their direction votes, negation, hedge and off-topic cues,
 * and each layer's score over the top score.
 */
final class ReaderFeatures {

    /**
     * Embedding components are of the order of 1/sqrt(384); this brings them near 0.5.
     */
    static final double EMBEDDING_SCALE = 10;

    /** Which features a model reads. */
    enum Inputs {

        /** Sentence embeddings only: the model alone. */
        EMBEDDINGS,
        /** Sentence embeddings and the rule features. */
        COMBINED,
        /** Word unigrams and bigrams and the rule features, no embeddings. */
        WORDS,
        /** Sentence embeddings, words and the rule features. */
        ALL,
        /**
         * Words, the rule features and which way the figures moved
         * ({@link FigureChanges}); amendment 3.
         */
        FIGURES;

        boolean embeddings() {
            return this != WORDS && this != FIGURES;
        }

        boolean rules() {
            return this != EMBEDDINGS;
        }

        boolean words() {
            return this == WORDS || this == ALL || this == FIGURES;
        }

        boolean figures() {
            return this == FIGURES;
        }

    }

    /**
     * One item's text as vectors.
     *
     * @param headline the headline's unit vector
     * @param sentences the body's sentences, in order (offsets into the body)
     * @param sentenceVectors one unit vector per body sentence
     */
    record Embedded(float[] headline, List<Sentence> sentences, List<float[]> sentenceVectors) {

        /** The mean of the body's sentence vectors, or the headline's without a body. */
        float[] body() {
            if (sentenceVectors.isEmpty()) {
                return headline;
            }
            float[] mean = new float[headline.length];
            for (float[] v : sentenceVectors) {
                for (int i = 0; i < mean.length; i++) {
                    mean[i] += v[i] / sentenceVectors.size();
                }
            }
            return mean;
        }
    }

    /** A body sentence: its text and where it starts (UTF-16 offset in the body). */
    record Sentence(String text, int offset) {
    }

    private ReaderFeatures() {
    }

    /**
     * @param embedder the sentence embedder; null for the sentences alone (no vectors)
     * @param headline the headline
     * @param body the body, may be empty
     * @return the headline's and each body sentence's vector, computed in one batch
     */
    static Embedded embed(SentenceEmbedder embedder, String headline, String body) {
        List<Sentence> sentences = sentences(body == null ? "" : body);
        if (embedder == null) {
            return new Embedded(null, sentences, List.of());
        }
        List<String> texts = new ArrayList<>(sentences.size() + 1);
        texts.add(headline == null ? "" : headline);
        sentences.forEach(s -> texts.add(s.text()));
        List<float[]> vectors = embedder.embedAll(texts);
        return new Embedded(vectors.get(0), sentences, vectors.subList(1, vectors.size()));
    }

    static List<Sentence> sentences(String body) {
        List<Sentence> out = new ArrayList<>();
        if (body.isBlank()) {
            return out;
        }
        int start = 0;
        for (int end : TextAnalysis.sentenceEnds(body)) {
            String text = body.substring(start, end).strip();
            if (!text.isEmpty()) {
                out.add(new Sentence(text, body.indexOf(text, start)));
            }
            start = end;
        }
        return out;
    }

    /**
     * Adds the embedding features.
     * @param headline the headline's vector (or, for evidence, one sentence's)
     * @param body the body's vector (or one sentence's)
     * @param names feature names, appended to
     * @param values their values, appended to
     */
    static void embeddings(float[] headline, float[] body, List<String> names, List<Double> values) {
        for (int i = 0; i < headline.length; i++) {
            names.add(String.format(Locale.ROOT, "h%03d", i));
            values.add(headline[i] * EMBEDDING_SCALE);
        }
        for (int i = 0; i < body.length; i++) {
            names.add(String.format(Locale.ROOT, "b%03d", i));
            values.add(body[i] * EMBEDDING_SCALE);
        }
    }

    /**
     * Adds the word features: each Porter-stemmed unigram and bigram of the text
     * ({@link TextAnalysis}, as the rules read it) once, as {@code w.<stem>} and
     * {@code w.<stem>_<stem>}, and the headline's again as {@code hw.} features. Binary.
     * @param headline the headline (or, for evidence, one sentence in its place), may be
     * empty
     * @param body the body (or one sentence), may be empty
     * @param names feature names, appended to
     * @param values their values, appended to
     */
    static void words(String headline, String body, List<String> names, List<Double> values) {
        Set<String> seen = new LinkedHashSet<>();
        List<TextAnalysis.Token> headlineTokens = TextAnalysis.tokens(headline);
        grams(headlineTokens, "hw.", seen);
        grams(headlineTokens, "w.", seen);
        grams(TextAnalysis.tokens(body), "w.", seen);
        for (String name : seen) {
            names.add(name);
            values.add(1.0);
        }
    }

    private static void grams(List<TextAnalysis.Token> tokens, String prefix, Set<String> out) {
        for (int i = 0; i < tokens.size(); i++) {
            out.add(prefix + tokens.get(i).stem());
            if (i + 1 < tokens.size() && tokens.get(i + 1).sentence() == tokens.get(i).sentence()) {
                out.add(prefix + tokens.get(i).stem() + "_" + tokens.get(i + 1).stem());
            }
        }
    }

    /**
     * Adds the rule features.
     * @param decided what the rules decided
     * @param seen what the rules saw
     * @param names feature names, appended to
     * @param values their values, appended to
     */
    static void rules(Decision decided, RuleReading seen, List<String> names, List<Double> values) {
        add(names, values, "r.relevant", decided.relevant() ? 1 : 0);
        add(names, values, "r.direction",
                !decided.relevant() ? 0 : decided.direction() == Direction.TIGHTENING ? 1 : -1);
        add(names, values, "r.confidence", decided.relevant() ? decided.confidence() : 0);
        if (decided.relevant() && !decided.layers().isEmpty()) {
            add(names, values, "r.primary." + decided.layers().get(0).id(), 1);
        }
        add(names, values, "r.votes", Math.min(seen.votes(), 5) / 5.0);
        add(names, values, "r.headlineVotes", Math.min(seen.headlineVotes(), 3) / 3.0);
        add(names, values, "r.lean", seen.totalWeight() == 0 ? 0 : seen.signedSum() / seen.totalWeight());
        add(names, values, "r.negated", seen.negated() ? 1 : 0);
        add(names, values, "r.hedged", seen.hedged() ? 1 : 0);
        add(names, values, "r.offTopicHeadline", seen.offTopicHeadline() ? 1 : 0);
        add(names, values, "r.offTopicBody", seen.offTopicBody() ? 1 : 0);
        double top = seen.layerScores().values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        add(names, values, "r.layerStrength", Math.log1p(top) / Math.log1p(100));
        for (Map.Entry<String, Double> e : seen.layerScores().entrySet()) {
            add(names, values, "r.layer." + e.getKey(), top == 0 ? 0 : e.getValue() / top);
        }
    }

    /**
     * @param label the example's label ({@code LabelFactory.UNKNOWN_LABEL} to predict)
     * @param names feature names
     * @param values their values
     * @return a Tribuo example of them
     */
    static ArrayExample<Label> example(Label label, List<String> names, List<Double> values) {
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        return new ArrayExample<>(label, names.toArray(String[]::new), v);
    }

    private static void add(List<String> names, List<Double> values, String name, double value) {
        names.add(name);
        values.add(value);
    }

}
