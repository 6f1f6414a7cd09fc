package io.chainfeed.api.search;

import java.util.Locale;

/**
 * Which reads a page of a search holds: those with every required piece, or the fall-back
 * to those with some. The answer ({@link SearchResults#mode}) and the cursor write it in
 * lower case ({@link #text}).
 */
public enum SearchMode {

    /** Every required piece matched. */
    ALL,

    /**
     * The fall-back: reads with some of the pieces, those with more first
     * ({@link FallBack#FALLBACK_PIECE_SCORE}).
     */
    ANY;

    /**
     * @param all whether every required piece must match
     * @return {@link #ALL} or {@link #ANY}
     */
    public static SearchMode of(boolean all) {
        return all ? ALL : ANY;
    }

    /**
     * @param text {@code all} or {@code any}, as {@link #text} writes it
     * @return the mode; {@link #ANY} for any other text
     */
    static SearchMode ofText(String text) {
        return ALL.text().equals(text) ? ALL : ANY;
    }

    /**
     * @return whether every required piece must match
     */
    public boolean all() {
        return this == ALL;
    }

    /**
     * @return {@code all} or {@code any}: how the answer and the cursor write it
     */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

}
