package io.chainfeed.esanalysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

class AnalysisFactoriesTest {

    @Test
    void englishStemsPluralsAndDropsStopWords() throws IOException {
        try (Analyzer english = new EnglishAnalyzerFactory().create()) {
            assertThat(terms(english.tokenStream("f", "The computers of NVIDIA's racks"))).containsExactly("comput",
                    "nvidia", "rack");
            assertThat(terms(english.tokenStream("f", "computer"))).containsExactly("comput");
        }
    }

    @Test
    void synonymGraphAddsEveryName() throws IOException {
        SynonymGraphFilterFactory f = new SynonymGraphFilterFactory(() -> List.of("hbm, high bandwidth memory"));
        StandardTokenizer tokenizer = new StandardTokenizer();
        tokenizer.setReader(new java.io.StringReader("HBM stacks"));
        assertThat(terms(f.create(new LowerCaseFilter(tokenizer)))).contains("hbm", "high", "bandwidth", "memory",
                "stacks");
        assertThat(f.getAnalysisMode()).isEqualTo(org.elasticsearch.plugin.analysis.AnalysisMode.SEARCH_TIME);
    }

    private static List<String> terms(TokenStream ts) throws IOException {
        List<String> out = new ArrayList<>();
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
            out.add(term.toString());
        }
        ts.end();
        ts.close();
        return out;
    }

}
