package io.chainfeed.ingest.page;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * A term's aliases, from the expansions its definition writes in parentheses: "RDMA
 * (remote direct memory access)" gives "remote direct memory access"; "high-bandwidth
 * memory (HBM)" with title HBM gives "high-bandwidth memory". A title that writes both
 * itself ("Optical circuit switch (OCS)") gives both parts, so that a reader who types
 * either one names the term.
 */
final class AliasExtractor {

    private AliasExtractor() {
    }

    /**
     * @param title the term's title
     * @param definition the definition's text
     * @return the aliases, in the order the definition gives them, without the title
     * itself
     */
    static List<String> aliases(String title, String definition) {
        String titleKey = PageText.key(title);
        String titleFold = PageText.fold(title);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher both = TermSlugs.TRAILING_PARENTHETICAL.matcher(title);
        if (both.matches()) {
            for (String part : List.of(both.group(1), both.group(2))) {
                String clean = PageText.cleanLine(part);
                String key = PageText.key(clean);
                if (!key.isEmpty() && !key.equals(titleKey)) {
                    out.putIfAbsent(key, clean);
                }
            }
        }
        Matcher m = PageText.PAREN.matcher(definition);
        while (m.find()) {
            String inside = PageText.cleanLine(m.group(1));
            String insideKey = PageText.key(inside);
            if (insideKey.isEmpty() || inside.contains(":") || PageText.words(inside) > 10
                    || PageText.fold(inside).matches("(e\\.g\\.|i\\.e\\.|see |for example).*")) {
                continue;
            }
            String before = definition.substring(Math.max(0, m.start() - PageText.WINDOW), m.start()).stripTrailing();
            String beforeFold = PageText.fold(before);
            if (beforeFold.endsWith(titleFold) && (beforeFold.length() == titleFold.length()
                    || !Character.isLetterOrDigit(beforeFold.charAt(beforeFold.length() - titleFold.length() - 1)))) {
                if (!insideKey.equals(titleKey)) {
                    out.putIfAbsent(insideKey, inside);
                }
            }
            else if (insideKey.equals(titleKey)) {
                String expansion = acronymExpansion(title, before);
                if (expansion != null) {
                    out.putIfAbsent(PageText.key(expansion), expansion);
                }
            }
        }
        return List.copyOf(out.values());
    }

    /** The words right before an acronym whose initials spell it, or null. */
    private static String acronymExpansion(String acronym, String before) {
        String letters = acronym.replaceAll("[^\\p{L}\\p{N}]", "").toLowerCase(Locale.ROOT);
        if (letters.length() < 2) {
            return null;
        }
        String[] tokens = before.strip().split("\\s+");
        for (int k = 1; k <= Math.min(10, tokens.length); k++) {
            String[] words = new String[k];
            System.arraycopy(tokens, tokens.length - k, words, 0, k);
            words[0] = words[0].replaceAll("^[\"'\u201C\u2018(\\[]+", "");
            if (words[0].isEmpty()) {
                continue;
            }
            StringBuilder whole = new StringBuilder();
            StringBuilder parts = new StringBuilder();
            for (String w : words) {
                whole.append(Character.toLowerCase(w.charAt(0)));
                for (String part : w.split("[-\u2010\u2011]")) {
                    if (!part.isEmpty()) {
                        parts.append(Character.toLowerCase(part.charAt(0)));
                    }
                }
            }
            if (letters.contentEquals(whole) || letters.contentEquals(parts)) {
                return String.join(" ", words);
            }
        }
        return null;
    }

}
