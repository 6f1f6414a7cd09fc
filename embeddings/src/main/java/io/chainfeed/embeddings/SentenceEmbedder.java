package io.chainfeed.embeddings;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Sentence embeddings in the JVM: the quantised all-MiniLM-L6-v2 model (Reimers and
 * Gurevych, Sentence-BERT, 2019; the ONNX file and its WordPiece tokenizer ship inside
 * langchain4j's jar) run by ONNX Runtime in process, mean-pooled and scaled to unit
 * length, so a dot product is the cosine similarity.
 *
 * <p>
 * The model is loaded once per JVM ({@link #shared()}, about 23 MB of weights and under a
 * second on this machine); calls are thread-safe. Texts longer than the model's 256 word
 * pieces are split and the parts' vectors averaged by langchain4j. Batches run on the
 * calling thread, so a caller decides how many cores embedding takes.
 */
public final class SentenceEmbedder {

    /**
     * The model's name and the library version that ships it; part of every model file's
     * version.
     */
    public static final String MODEL = "all-minilm-l6-v2-q@langchain4j-1.19.0-beta29";

    /** Dimensions of every vector. */
    public static final int DIMENSIONS = 384;

    private static final class Holder {

        static final SentenceEmbedder SHARED = new SentenceEmbedder();

    }

    private final EmbeddingModel model = new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run);

    private SentenceEmbedder() {
    }

    /**
     * @return the one embedder of this JVM; the first call loads the model
     */
    public static SentenceEmbedder shared() {
        return Holder.SHARED;
    }

    /**
     * @param text any text; blank text embeds as the model's vector of an empty input
     * @return a unit vector of {@link #DIMENSIONS} floats
     */
    public float[] embed(String text) {
        Embedding e = model.embed(text == null || text.isBlank() ? " " : text).content();
        return e.vector();
    }

    /**
     * @param texts texts to embed, in order
     * @return one unit vector of {@link #DIMENSIONS} floats per text, in the same order
     */
    public List<float[]> embedAll(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (String t : texts) {
            segments.add(TextSegment.from(t == null || t.isBlank() ? " " : t));
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (Embedding e : model.embedAll(segments).content()) {
            out.add(e.vector());
        }
        return out;
    }

    /**
     * @param a a unit vector
     * @param b another, of the same length
     * @return their dot product: the cosine similarity of unit vectors, -1 to 1
     * @throws IllegalArgumentException when the lengths differ
     */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " dimensions");
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }

}
