package io.chainfeed.esanalysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/** {@code "filter": ["porter_stem"]} in a custom analyzer; expects lower-cased input. */
@NamedComponent("porter_stem")
public class PorterStemFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream in) {
        return new PorterStemFilter(in);
    }

}
