package io.chainfeed.ingest.reference;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import java.util.List;

/**
 * What ingest knows of the chain before it reads a page: the layers, the companies with
 * their listings, and the glossary terms by slug, title and aliases. Used to split
 * run-together company names and tickers, and to resolve related-term titles and layer
 * names to ids.
 *
 * @param layers chain layers
 * @param companies companies with aliases and listings
 * @param terms known glossary terms
 */
public record ReferenceData(List<ChainLayer> layers, List<Company> companies, List<KnownTerm> terms) {

    public ReferenceData {
        layers = List.copyOf(layers);
        companies = List.copyOf(companies);
        terms = List.copyOf(terms);
    }

    /** No reference data at all: parsing then relies on the page alone. */
    public static ReferenceData empty() {
        return new ReferenceData(List.of(), List.of(), List.of());
    }

    /**
     * A glossary term as reference data.
     *
     * @param slug stable id
     * @param title display title
     * @param aliases other names and acronym expansions
     */
    public record KnownTerm(String slug, String title, List<String> aliases) {
        public KnownTerm {
            aliases = List.copyOf(aliases);
        }
    }
}
