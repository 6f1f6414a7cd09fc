package io.chainfeed.api.search;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import java.util.List;
import java.util.Optional;

/**
 * A search's text read once ({@link QueryAnalyser}), for every step of the request to
 * read: the query builder ({@link SearchQuery}), the pages ({@link ReadSearch}), the top
 * result ({@link TopResults}) and the answer's snippets and notices
 * ({@link SearchController}).
 *
 * @param text the text as typed: the first-page cache key and the cursor's hash are made
 * of it
 * @param parsed its parse
 * @param intent its reading: subject, filler, constraint talk
 * @param companies the companies its required pieces name ({@link QueryWords#companies}),
 * in order, each once
 * @param names the runs of words that spell a glossary term's name or a synonym
 * ({@link SearchCatalog#names}); empty beyond {@link SearchQuery#FUZZY_MAX_PIECES}
 * pieces, where synonyms are not expanded
 * @param wholeTerm the glossary term the whole text ({@link QueryText#plain}) names, or
 * null
 * @param subjectTerm the glossary term the subject ({@link QueryIntent#subject}) names,
 * or null
 * @param layer the chain layer the subject names ({@link TopResults#layerNamed}), or null
 * @param subjectCompany the company the subject as typed
 * ({@link QueryIntent#subjectPiece}) names as a whole ({@link QueryWords#company}), or
 * null
 */
public record AnalysedQuery(String text, QueryText parsed, QueryIntent intent, List<Company> companies,
        List<SearchCatalog.NameMatch> names, SearchCatalog.TermNames wholeTerm, SearchCatalog.TermNames subjectTerm,
        ChainLayer layer, Company subjectCompany) {

    /**
     * @return the glossary term the query names: the one the whole text names, else the
     * one its subject names; null when neither names one
     */
    public SearchCatalog.TermNames term() {
        return wholeTerm != null ? wholeTerm : subjectTerm;
    }

    /**
     * @return the id of the chain layer the subject names, if any
     */
    public Optional<String> layerId() {
        return Optional.ofNullable(layer).map(ChainLayer::getId);
    }

    /**
     * @return whether some of its words are constraint talk ("shortage", "sold out")
     */
    public boolean constraintTalk() {
        return intent.segments().stream().anyMatch(g -> g.role() == QueryIntent.Role.CONSTRAINT);
    }

    /**
     * @return whether its words are fuzzy and its term names expanded: at most
     * {@link SearchQuery#FUZZY_MAX_PIECES} required pieces
     */
    public boolean fuzzy() {
        return parsed.size() <= SearchQuery.FUZZY_MAX_PIECES;
    }

}
