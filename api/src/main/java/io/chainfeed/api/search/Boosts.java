package io.chainfeed.api.search;

/**
 * The boosts and text-matching settings of a search ({@link SearchQuery}), named so that
 * a change shows in review.
 */
public final class Boosts {

    /** A read's title and aliases: the name of what it explains. */
    public static final int TITLE = 4;

    /** Its summary, the companies' and layers' names it is tagged with. */
    public static final int SUMMARY = 2;

    /** A read whose title equals the whole text. */
    public static final float EXACT_TITLE = 20f;

    /** A read one of whose aliases equals the whole text. */
    public static final float EXACT_ALIAS = 15f;

    /** The read of the glossary term the whole text names. */
    public static final float NAMED_TERM = 20f;

    /**
     * A read tagged with a company the piece names, or carrying the ticker the piece
     * spells.
     */
    public static final float COMPANY = 3f;

    /**
     * A read that has the query's words (filler aside) together, as a phrase within
     * {@link #PHRASE_SLOP}.
     */
    public static final float PHRASE = 1.5f;

    /** How far apart the words of {@link #PHRASE} may stand (positions moved). */
    public static final int PHRASE_SLOP = 2;

    /**
     * A term read the named term's source declares related, for a query without
     * constraint talk: it is found even when it does not use the query's words.
     */
    public static final float RELATED_TERM = 12f;

    /** A term read, for a query without constraint talk. */
    public static final float TERM_READ = 4f;

    /** A read whose primary layer is the chain layer the query's subject names. */
    public static final float NAMED_LAYER = 5f;

    /**
     * A term read whose primary layer is the chain layer the query's subject names, for a
     * query without constraint talk.
     */
    public static final float LAYER_TERM = 10f;

    /**
     * A signal read observed in the year the query names, or whose horizon reaches into
     * it.
     */
    public static final float YEAR = 6f;

    /** A read whose primary subject is a company the piece names. */
    public static final float PRIMARY_COMPANY = 3f;

    /**
     * For a query that names a company and nothing else: a term read that lists the
     * company among its main companies and sits in one of the company's layers (what the
     * company's business is).
     */
    public static final float COMPANY_TERM = 12f;

    /** The same, when the term sits in the company's primary layer. */
    public static final float COMPANY_PRIMARY_LAYER_TERM = 6f;

    /**
     * A signal read reporting a change in the direction constraint words talk about
     * ("shortage").
     */
    public static final float CONSTRAINT_SIGNAL = 10f;

    /**
     * Factor on the score of a state read (a layer's status change, quoting its causes).
     */
    public static final double STATE_READ = 0.1;

    /**
     * Fuzziness of words: no edit below five letters, one from five, two from nine. (One
     * edit at most would make searches cheaper, a two-edit Levenshtein automaton costing
     * several times a one-edit one, but a typo at a stemmed word's end, such as
     * "hyperscalar", is two edits from its stem: measured 2026-12-03, the judged set fell
     * from 0.859 to 0.848.)
     */
    public static final String FUZZINESS = "AUTO:5,8";

    /**
     * Fuzziness of words in the highlighter's query ({@link #highlight}): one edit from
     * five letters, never two.
     */
    public static final String HIGHLIGHT_FUZZINESS = "AUTO:5,100";

    /**
     * Share of the other fields' scores added to the best field's in a
     * {@code best_fields} match.
     */
    public static final double TIE_BREAKER = 0.3;

    private Boosts() {
    }

}
