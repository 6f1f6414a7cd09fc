package io.chainfeed.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SentenceEmbedderTest {

    private final SentenceEmbedder embedder = SentenceEmbedder.shared();

    @Test
    void vectorsAreUnitLengthAndOfTheModelsSize() {
        float[] v = embedder.embed("Memory makers say HBM is sold out for next year");
        assertThat(v).hasSize(SentenceEmbedder.DIMENSIONS);
        assertThat(SentenceEmbedder.cosine(v, v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3));
    }

    @Test
    void aParaphraseIsCloserThanAnotherTopic() {
        List<float[]> v = embedder.embedAll(List.of("Chip packaging capacity is short and orders wait for months",
                "Advanced packaging lines are fully booked, customers queue for slots",
                "The central bank left interest rates unchanged"));
        assertThat(SentenceEmbedder.cosine(v.get(0), v.get(1)))
            .isGreaterThan(SentenceEmbedder.cosine(v.get(0), v.get(2)) + 0.2);
    }

    @Test
    void batchAndSingleAgree() {
        String text = "Transformer lead times stretch past two years";
        float[] single = embedder.embed(text);
        float[] batch = embedder.embedAll(List.of("another line", text)).get(1);
        assertThat(SentenceEmbedder.cosine(single, batch)).isGreaterThan(0.999);
    }

}
