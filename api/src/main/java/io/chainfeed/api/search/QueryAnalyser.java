package io.chainfeed.api.search;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Reads a search's text once into an {@link AnalysedQuery}: parses it
 * ({@link QueryText}), reads its intent ({@link QueryIntent}), resolves the companies its
 * pieces name ({@link QueryWords}), the glossary names it spells and the term its whole
 * text or its subject names ({@link SearchCatalog}), and the chain layer and the company
 * its subject names ({@link TopResults#layerNamed}, {@link QueryWords#company}).
 */
@Component
public class QueryAnalyser {

    /**
     * Most pieces (required and excluded) a query may have: a real limit, answered with a
     * 400.
     */
    public static final int MAX_PIECES = 48;

    private final SearchCatalog catalog;

    private final CompanyResolver companies;

    private final Function<List<String>, Optional<ChainLayer>> layers;

    /**
     * @param catalog the glossary's names
     * @param companies resolves pieces that name a company
     * @param layers the chain layers' names and aliases
     */
    @Autowired
    QueryAnalyser(SearchCatalog catalog, CompanyResolver companies, ReferenceLayers layers) {
        this(catalog, companies, words -> TopResults.layerNamed(layers.all(), words));
    }

    /**
     * @param catalog the glossary's names
     * @param companies resolves pieces that name a company
     * @param layers the chain layer some words name (its name, id or alias), if any
     */
    QueryAnalyser(SearchCatalog catalog, CompanyResolver companies,
            Function<List<String>, Optional<ChainLayer>> layers) {
        this.catalog = catalog;
        this.companies = companies;
        this.layers = layers;
    }

    /**
     * @param text the user's text (any characters)
     * @return its analysis
     * @throws BadRequestException {@code query-too-long} beyond {@link #MAX_PIECES}
     * pieces
     * @throws IOException if the glossary's names could not be loaded
     */
    public AnalysedQuery analyse(String text) throws IOException {
        QueryText parsed = QueryText.parse(text);
        if (parsed.groups().size() + parsed.excluded().size() > MAX_PIECES) {
            throw new BadRequestException("query-too-long", "at most " + MAX_PIECES + " words or phrases per query");
        }
        QueryIntent intent = QueryIntent.of(parsed);
        String plain = parsed.plain();
        String subject = intent.subject();
        List<SearchCatalog.NameMatch> names = !parsed.isEmpty() && parsed.size() <= SearchQuery.FUZZY_MAX_PIECES
                ? catalog.names(parsed) : List.of();
        SearchCatalog.TermNames wholeTerm = plain.isEmpty() ? null : catalog.termNamed(plain);
        SearchCatalog.TermNames subjectTerm = subject.isEmpty() ? null
                : subject.equals(plain) ? wholeTerm : catalog.termNamed(subject);
        ChainLayer layer = subject.isEmpty() ? null : layers.apply(QueryText.words(subject)).orElse(null);
        Company subjectCompany = intent.subjectPiece()
            .flatMap(whole -> QueryWords.company(whole, companies))
            .orElse(null);
        return new AnalysedQuery(text, parsed, intent, QueryWords.companies(parsed, companies), names, wholeTerm,
                subjectTerm, layer, subjectCompany);
    }

}
