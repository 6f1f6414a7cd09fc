package io.chainfeed.ingest.page;

import io.chainfeed.ingest.Slugs;
import io.chainfeed.ingest.reference.ReferenceData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slugs of the glossary terms the reference data knows, by title and alias (compared
 * as {@link PageText#key}).
 */
final class TermSlugs {

    /**
     * A title that ends in a parenthetical, e.g. {@code Optical circuit switch (OCS)}:
     * the name, the inside.
     */
    static final Pattern TRAILING_PARENTHETICAL = Pattern.compile("^(.*?)\\s*\\(([^()]+)\\)\\s*$");

    private final Map<String, String> termSlugs = new HashMap<>();

    private final List<String> knownTitles = new ArrayList<>();

    /**
     * @param terms the known glossary terms
     */
    TermSlugs(List<ReferenceData.KnownTerm> terms) {
        for (ReferenceData.KnownTerm term : terms) {
            termSlugs.putIfAbsent(PageText.key(term.title()), term.slug());
            knownTitles.add(term.title());
            for (String alias : term.aliases()) {
                termSlugs.putIfAbsent(PageText.key(alias), term.slug());
                knownTitles.add(alias);
            }
        }
        termSlugs.remove("");
    }

    /**
     * @return every known title and alias, as written
     */
    List<String> knownTitles() {
        return knownTitles;
    }

    /**
     * Known slug for a title (its title or an alias), also trying "X (Y)" as X, then Y;
     * else the slugified title.
     */
    String resolve(String title) {
        String slug = termSlugs.get(PageText.key(title));
        if (slug == null) {
            Matcher m = TRAILING_PARENTHETICAL.matcher(title);
            if (m.matches()) {
                slug = termSlugs.get(PageText.key(m.group(1)));
                if (slug == null) {
                    slug = termSlugs.get(PageText.key(m.group(2)));
                }
            }
        }
        return slug != null ? slug : Slugs.slugify(title);
    }

}
