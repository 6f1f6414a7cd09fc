package io.chainfeed.esanalysis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.text.ParseException;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.synonym.SolrSynonymParser;
import org.apache.lucene.analysis.synonym.SynonymGraphFilter;
import org.apache.lucene.analysis.synonym.SynonymMap;
import org.elasticsearch.plugin.Inject;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.AnalysisMode;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;
import org.elasticsearch.plugin.settings.AnalysisSettings;
import org.elasticsearch.plugin.settings.ListSetting;

/**
 * {@code {"type": "synonym_graph", "synonyms": ["hbm, high bandwidth memory", ...]}}
 * (Solr format, inline only), search time only: a synonym graph at index time would need
 * a flatten filter. Rules are parsed with a standard tokenizer and lower-casing, so put
 * it after {@code lowercase} in the analyzer.
 */
@NamedComponent("synonym_graph")
public class SynonymGraphFilterFactory implements TokenFilterFactory {

    /** The filter's settings. */
    @AnalysisSettings
    public interface Settings {

        /**
         * @return the rules, Solr format
         */
        @ListSetting(path = "synonyms")
        List<String> synonyms();

    }

    private final SynonymMap map;

    /**
     * @param settings the filter's settings
     */
    @Inject
    public SynonymGraphFilterFactory(Settings settings) {
        this.map = parse(settings.synonyms());
    }

    static SynonymMap parse(List<String> rules) {
        Analyzer analyzer = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer tokenizer = new StandardTokenizer();
                return new TokenStreamComponents(tokenizer, new LowerCaseFilter(tokenizer));
            }
        };
        try {
            SolrSynonymParser parser = new SolrSynonymParser(true, true, analyzer);
            parser.parse(new StringReader(String.join("\n", rules)));
            return parser.build();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (ParseException e) {
            throw new IllegalArgumentException("bad synonym rule: " + e.getMessage(), e);
        }
    }

    @Override
    public TokenStream create(TokenStream in) {
        return map.fst == null ? in : new SynonymGraphFilter(in, map, true);
    }

    @Override
    public AnalysisMode getAnalysisMode() {
        return AnalysisMode.SEARCH_TIME;
    }

}
