package io.chainfeed.api.search;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.avro.Company;
import io.chainfeed.schemas.CompanyDirectory;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.snowball.SnowballFilter;

/**
 * What the pieces of a query are, beyond their text: stop words (the Snowball project's
 * English stop list, as Lucene ships it: {@code the}, {@code of}, {@code out},
 * {@code over} ...) and companies named by a ticker, MIC-qualified symbol, id, name or
 * alias ({@link CompanyDirectory}).
 *
 * <p>
 * A piece names a company when it is written like a ticker (upper case, digits:
 * {@code TSM}, {@code 2330.TW}) and resolves by any identifier; when written otherwise
 * ({@code tsmc}, {@code 2330.tw}), only by the company id, name or alias, or by a symbol
 * containing a digit, dot or colon, and never when it is a stop word: {@code on} is a
 * word, {@code ON} a ticker.
 */
public final class QueryWords {

    private static final CharArraySet STOP_WORDS = load();

    private QueryWords() {
    }

    private static CharArraySet load() {
        try (Reader r = new InputStreamReader(SnowballFilter.class.getResourceAsStream("english_stop.txt"),
                StandardCharsets.UTF_8)) {
            return CharArraySet.unmodifiableSet(WordlistLoader.getSnowballWordSet(r));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param word one word, any case
     * @return whether it is an English stop word
     */
    public static boolean isStopWord(String word) {
        return STOP_WORDS.contains(word.toLowerCase(Locale.ROOT));
    }

    /**
     * @param p a piece of a query
     * @return whether it is a single unquoted word that is a stop word (and not written
     * as a ticker)
     */
    public static boolean isStopWord(QueryText.Piece p) {
        return !p.phrase() && !p.tickerLike() && p.words().size() == 1 && isStopWord(p.words().get(0));
    }

    /**
     * @param p a piece of a query
     * @param companies the resolver
     * @return the company the piece names, if any (see the class comment)
     */
    public static Optional<Company> company(QueryText.Piece p, CompanyResolver companies) {
        if (p.phrase() && !p.text().contains(" ")) {
            return company(new QueryText.Piece(p.text(), false), companies);
        }
        CompanyDirectory dir = companies.directory();
        Optional<Company> c = dir.resolve(p.text());
        if (c.isEmpty() || p.tickerLike()) {
            return c;
        }
        if (isStopWord(p)) {
            return Optional.empty();
        }
        CompanyDirectory.Via via = dir.via(p.text()).orElseThrow();
        boolean symbolish = p.text().chars().anyMatch(ch -> Character.isDigit(ch) || ch == '.' || ch == ':');
        return switch (via) {
            case ID, NAME, ALIAS -> c;
            default -> symbolish ? c : Optional.empty();
        };
    }

    /**
     * @param query a parsed query
     * @param companies the resolver
     * @return the companies its required pieces name, in order, each once
     */
    public static List<Company> companies(QueryText query, CompanyResolver companies) {
        Set<String> seen = new LinkedHashSet<>();
        List<Company> out = new ArrayList<>();
        for (List<QueryText.Piece> g : query.groups()) {
            for (QueryText.Piece p : g) {
                company(p, companies).filter(c -> seen.add(c.getId())).ifPresent(out::add);
            }
        }
        return out;
    }

}
