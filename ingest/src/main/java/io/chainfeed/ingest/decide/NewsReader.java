package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import io.chainfeed.embeddings.SentenceEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import org.tribuo.Model;
import org.tribuo.Prediction;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.impl.ArrayExample;

/**
 * The learned reader of news items: three L2-regularised logistic regressions (Tribuo
 * over LIBLINEAR) over sentence embeddings and, in the combined variant, the rules'
 * features ({@link ReaderFeatures}): relevance, then direction and primary layer. Trained
 * by {@link ReaderTraining} ({@code ./chainfeed train-decider}); the bundled model lives
 * in this package's resources ({@code news-reader.properties} and three {@code .tribuo}
 * files). Thread-safe.
 */
public final class NewsReader {

    /** Label of a relevant item in the relevance model. */
    static final String RELEVANT = "relevant";

    /** Label of an item to skip in the relevance model. */
    static final String SKIP = "skip";

    private static final String RESOURCE_DIR = "/io/chainfeed/ingest/decide/";

    /** The file names of a saved reader, in a directory or the bundled resources. */
    static final String PROPERTIES = "news-reader.properties";

    static final String RELEVANCE = "news-reader-relevance.tribuo";

    static final String DIRECTION = "news-reader-direction.tribuo";

    static final String LAYER = "news-reader-layer.tribuo";

    private final Model<Label> relevance;

    private final Model<Label> direction;

    private final Model<Label> layer;

    private final ReaderFeatures.Inputs inputs;

    private final String version;

    private final double relevanceThreshold;

    private final SentenceEmbedder embedder;

    /**
     * The reader's verdict on one item.
     *
     * @param relevant whether it is a supply constraint on the chain: the probability at
     * or above the reader's cross-validated threshold
     * @param relevance the probability that it is (0-1)
     * @param direction the more probable direction (for a skipped item too)
     * @param directionProbability its probability (0-1)
     * @param layer the most probable primary layer id
     * @param layerProbability its probability (0-1)
     * @param weightiest the headline or body sentence that weighed most for the direction
     * (relevant) or the skip (not relevant)
     */
    public record Reading(boolean relevant, double relevance, Direction direction, double directionProbability,
            String layer, double layerProbability, Decision.Span weightiest) {

        /**
         * @return how sure the reader is of direction and layer: the product of their
         * probabilities (0-1)
         */
        public double confidence() {
            return directionProbability * layerProbability;
        }
    }

    NewsReader(Model<Label> relevance, Model<Label> direction, Model<Label> layer, ReaderFeatures.Inputs inputs,
            String version, double relevanceThreshold, SentenceEmbedder embedder) {
        this.relevanceThreshold = relevanceThreshold;
        this.relevance = relevance;
        this.direction = direction;
        this.layer = layer;
        this.inputs = inputs;
        this.version = version;
        this.embedder = embedder;
    }

    /**
     * @return the bundled reader
     * @throws UncheckedIOException when the bundled files are missing or unreadable
     */
    public static NewsReader bundled() {
        try {
            Properties p = new Properties();
            try (InputStream in = resource(PROPERTIES)) {
                p.load(in);
            }
            ReaderFeatures.Inputs inputs = ReaderFeatures.Inputs.valueOf(p.getProperty("inputs"));
            // the embedding model (about 100 MB native) loads only for inputs that read
            // vectors
            return new NewsReader(model(resource(RELEVANCE)), model(resource(DIRECTION)), model(resource(LAYER)),
                    inputs, p.getProperty("version"), Double.parseDouble(p.getProperty("relevanceThreshold", "0.5")),
                    inputs.embeddings() ? SentenceEmbedder.shared() : null);
        }
        catch (IOException e) {
            throw new UncheckedIOException("the bundled news reader cannot be read", e);
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = NewsReader.class.getResourceAsStream(RESOURCE_DIR + name);
        if (in == null) {
            throw new IOException("no resource " + RESOURCE_DIR + name);
        }
        return in;
    }

    @SuppressWarnings("unchecked")
    private static Model<Label> model(InputStream in) throws IOException {
        try (in) {
            Model<?> m = Model.deserializeFromStream(in);
            if (!m.validate(Label.class)) {
                throw new IOException("not a classification model: " + m.getClass().getName());
            }
            return (Model<Label>) m;
        }
    }

    /**
     * Writes the three models and their properties into a directory.
     * @param dir the directory (created when missing)
     * @param properties what to record beside the models (training-set hash, figures);
     * the version and inputs are added
     * @throws IOException when writing fails
     */
    void save(Path dir, Properties properties) throws IOException {
        Files.createDirectories(dir);
        relevance.serializeToFile(dir.resolve(RELEVANCE));
        direction.serializeToFile(dir.resolve(DIRECTION));
        layer.serializeToFile(dir.resolve(LAYER));
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty("version", version);
        p.setProperty("inputs", inputs.name());
        p.setProperty("relevanceThreshold", String.valueOf(relevanceThreshold));
        // sorted and without Properties.store's date line, so that a retrain on the same
        // sets changes the file only where the figures change
        StringBuilder text = new StringBuilder("# chainfeed news reader: written by ./chainfeed train-decider\n");
        new TreeMap<>(p).forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(dir.resolve(PROPERTIES), text, StandardCharsets.UTF_8);
    }

    /**
     * @return the model's version: {@code news-reader-} and the first 12 hex digits of
     * the training set's SHA-256
     */
    public String version() {
        return version;
    }

    /**
     * Reads one item.
     * @param headline its headline
     * @param body its body, may be empty
     * @param decided what the rules decided of it
     * @param seen what the rules saw in it
     * @return the verdict, with the sentence that weighed most
     */
    Reading read(String headline, String body, Decision decided, RuleReading seen) {
        ReaderFeatures.Embedded x = ReaderFeatures.embed(inputs.embeddings() ? embedder : null, headline, body);
        return read(x, headline, body, decided, seen);
    }

    Reading read(ReaderFeatures.Embedded x, String headline, String body, Decision decided, RuleReading seen) {
        ArrayExample<Label> example = example(x, headline, body, decided, seen);
        Prediction<Label> rel = relevance.predict(example);
        Prediction<Label> dir = direction.predict(example);
        Prediction<Label> lay = layer.predict(example);
        boolean relevant = probability(rel, RELEVANT) >= relevanceThreshold;
        Direction d = dir.getOutput().getLabel().equals(Direction.TIGHTENING.name()) ? Direction.TIGHTENING
                : Direction.EASING;
        Decision.Span weightiest = weightiest(x, headline, relevant ? direction : relevance,
                relevant ? dir.getOutput().getLabel() : SKIP);
        return new Reading(relevant, probability(rel, RELEVANT), d, probability(dir, d.name()),
                lay.getOutput().getLabel(), probability(lay, lay.getOutput().getLabel()), weightiest);
    }

    ArrayExample<Label> example(ReaderFeatures.Embedded x, String headline, String body, Decision decided,
            RuleReading seen) {
        List<String> names = new ArrayList<>(1024);
        List<Double> values = new ArrayList<>(1024);
        if (inputs.embeddings()) {
            ReaderFeatures.embeddings(x.headline(), x.body(), names, values);
        }
        if (inputs.words()) {
            ReaderFeatures.words(headline, body, names, values);
        }
        if (inputs.figures()) {
            FigureChanges.features(headline, x.sentences(), names, values);
        }
        if (inputs.rules()) {
            ReaderFeatures.rules(decided, seen, names, values);
        }
        return ReaderFeatures.example(LabelFactory.UNKNOWN_LABEL, names, values);
    }

    /**
     * The headline or body sentence whose features alone push the model furthest towards
     * {@code label}: a linear model's score is a sum over its inputs, and a body sentence
     * holds its share of the body's mean vector and its own words.
     */
    private Decision.Span weightiest(ReaderFeatures.Embedded x, String headline, Model<Label> model, String label) {
        double best = probability(model.predict(only(x.headline(), null, headline, "")), label);
        Decision.Span span = new Decision.Span("headline", 0, headline.length(), headline, "model: weighed most");
        int n = x.sentences().size();
        for (int i = 0; i < n; i++) {
            float[] share = null;
            if (inputs.embeddings()) {
                share = x.sentenceVectors().get(i).clone();
                for (int k = 0; k < share.length; k++) {
                    share[k] /= n;
                }
            }
            ReaderFeatures.Sentence s = x.sentences().get(i);
            double p = probability(model.predict(only(null, share, "", s.text())), label);
            if (p > best) {
                best = p;
                span = new Decision.Span("body", s.offset(), s.text().length(), s.text(), "model: weighed most");
            }
        }
        return span;
    }

    /** An example of one part's features: the headline's or one body sentence's. */
    private ArrayExample<Label> only(float[] headlineVector, float[] bodyVector, String headline, String body) {
        List<String> names = new ArrayList<>(1024);
        List<Double> values = new ArrayList<>(1024);
        if (inputs.embeddings()) {
            float[] zero = new float[SentenceEmbedder.DIMENSIONS];
            ReaderFeatures.embeddings(headlineVector == null ? zero : headlineVector,
                    bodyVector == null ? zero : bodyVector, names, values);
        }
        if (inputs.words()) {
            ReaderFeatures.words(headline, body, names, values);
        }
        if (inputs.figures()) {
            FigureChanges.features(headline, ReaderFeatures.sentences(body), names, values);
        }
        return ReaderFeatures.example(LabelFactory.UNKNOWN_LABEL, names, values);
    }

    private static double probability(Prediction<Label> p, String label) {
        Label l = p.getOutputScores().get(label);
        return l == null ? 0 : l.getScore();
    }

}
