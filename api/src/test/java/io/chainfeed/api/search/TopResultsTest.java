package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.ingest.corpus.Corpus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which chain layer a query's subject names ({@link TopResults#layerNamed}), over the
 * bundled layers.
 */
class TopResultsTest {

    private static final List<ChainLayer> LAYERS = Corpus.loadBundled().layers();

    private static Optional<String> layer(String subject) {
        return TopResults.layerNamed(LAYERS, QueryText.words(subject)).map(ChainLayer::getId);
    }

    @Test
    void aNameOrAliasNamesItsLayer() {
        assertThat(layer("memory layer")).contains("memory");
        assertThat(layer("energy and power")).contains("energy-power");
        assertThat(layer("network-fabric")).contains("network-fabric");
    }

    @Test
    void aQuestionAboutALayerFindsTheLayerItsOtherWordsName() {
        assertThat(layer("memory layer status")).contains("memory");
        // "which layer is short of power": power is in one layer's name
        assertThat(layer("layer power")).contains("energy-power");
    }

    @Test
    void withoutALayerWordLooseWordsNameNoLayer() {
        assertThat(layer("power")).isEmpty();
        assertThat(layer("memory status prices")).isEmpty();
        // nothing but words that ask about a layer
        assertThat(layer("layer status")).isEmpty();
    }

}
