package io.chainfeed.esanalysis;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.AnalyzerFactory;

/**
 * {@code "analyzer": "english"}: Lucene's {@link EnglishAnalyzer} (possessives, stop
 * words, Porter stemming).
 */
@NamedComponent("english")
public class EnglishAnalyzerFactory implements AnalyzerFactory {

    @Override
    public Analyzer create() {
        return new EnglishAnalyzer();
    }

}
