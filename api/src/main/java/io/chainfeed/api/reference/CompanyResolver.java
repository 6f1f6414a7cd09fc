package io.chainfeed.api.reference;

import io.chainfeed.avro.Company;
import io.chainfeed.schemas.CompanyDirectory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The API's one way to turn what a person wrote for a company ({@code TSM},
 * {@code 2330.tw}, {@code XNYS:TSM}, {@code tsmc}, {@code Taiwan Semiconductor}) into the
 * company, over the live {@link CompanyDirectory}; used by the company API and page, the
 * search filter and facets, feed selectors (feeds, webhooks, widget) and suggest. Unknown
 * identifiers raise {@link UnknownCompanyException} with close matches.
 */
@Component
public class CompanyResolver {

    /** Most close matches offered for an unknown company. */
    public static final int MAX_CLOSE_MATCHES = 5;

    private final Supplier<CompanyDirectory> directory;

    private final Supplier<Boolean> loaded;

    @Autowired
    CompanyResolver(ReferenceCompanies companies) {
        this(companies::directory, companies::isLoaded);
    }

    /**
     * @param directory the current directory
     * @param loaded whether the reference data has been read to its end once
     */
    public CompanyResolver(Supplier<CompanyDirectory> directory, Supplier<Boolean> loaded) {
        this.directory = directory;
        this.loaded = loaded;
    }

    /**
     * @return a resolver over a fixed directory: for tests and tools
     */
    public static CompanyResolver of(CompanyDirectory directory) {
        return new CompanyResolver(() -> directory, () -> true);
    }

    /**
     * @return the current directory
     */
    public CompanyDirectory directory() {
        return directory.get();
    }

    /**
     * @return whether the reference data is known; before that, nothing can be called
     * unknown
     */
    public boolean ready() {
        return loaded.get() && !directory.get().isEmpty();
    }

    /**
     * @param identifier any identifier of a company, any case
     * @return the company, if the identifier names exactly one
     */
    public Optional<Company> find(String identifier) {
        return directory.get().resolve(identifier);
    }

    /**
     * @param identifier any identifier of a company, any case
     * @return the company it names
     * @throws UnknownCompanyException if it names none (or two), with close matches
     */
    public Company require(String identifier) {
        return find(identifier).orElseThrow(() -> new UnknownCompanyException(identifier, closeMatches(identifier)));
    }

    /**
     * Identifiers close to one that resolves to nothing: identifiers that start with it,
     * then those within a small edit distance (one edit up to four characters, two
     * beyond), nearest first.
     * @param identifier what was written
     * @return up to {@link #MAX_CLOSE_MATCHES} suggestions, each
     * {@code "<symbol> (<name>)"}
     */
    public List<String> closeMatches(String identifier) {
        String key = CompanyDirectory.fold(identifier == null ? "" : identifier);
        if (key.isEmpty()) {
            return List.of();
        }
        int limit = key.length() <= 4 ? 1 : 2;
        LevenshteinDistance distance = new LevenshteinDistance(limit);
        record Near(int score, String label) {
        }
        List<Near> near = new ArrayList<>();
        for (CompanyDirectory.Key k : directory.get().keys()) {
            int score;
            if (k.key().startsWith(key)) {
                score = 0;
            }
            else {
                int d = distance.apply(key, k.key());
                if (d < 0) {
                    continue;
                }
                score = d;
            }
            near.add(new Near(score, label(k.company())));
        }
        near.sort(Comparator.comparingInt(Near::score).thenComparing(Near::label));
        Set<String> out = new LinkedHashSet<>();
        for (Near n : near) {
            if (out.size() == MAX_CLOSE_MATCHES) {
                break;
            }
            out.add(n.label());
        }
        return List.copyOf(out);
    }

    /**
     * @return {@code "<canonical symbol> (<name>)"}
     */
    public static String label(Company c) {
        return CompanyDirectory.canonicalSymbol(c) + " (" + c.getName() + ")";
    }

}
