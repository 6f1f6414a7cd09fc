package io.chainfeed.streams.tagging;

/**
 * Every rule that can put a tag on a read, with the name its evidence carries
 * ({@link #id()}, the {@code rule} of an Avro {@code Evidence}) and the confidence it
 * gives. A tag's confidence is the highest of its evidence.
 *
 * <p>
 * Names found in running text start from their rule's confidence and are lowered by how
 * they are written: an acronym company name ({@link #ACRONYM_NAME}), a name that is an
 * ordinary English word ({@link #ORDINARY_WORD_NAME}), such a name alone at the start of
 * a sentence ({@link #SENTENCE_START_NAME}), a term title or alias that is a generic word
 * ({@link #GENERIC_TERM_NAME}). Layers derived from other tags
 * ({@link #COMPANY_PRIMARY_LAYER}, {@link #TERM_LAYER}) grow with the number of tags
 * behind them ({@link #derived(int)}).
 */
enum TagRule {

    /** A company the source lists, resolved in reference data. */
    DECLARED_COMPANY("declared-company", 1.0),
    /**
     * A company the source lists that reference data does not know: kept, so nothing the
     * source says is lost.
     */
    DECLARED_COMPANY_UNRESOLVED("declared-company-unresolved", 0.5),
    /** {@code $ANET}. */
    TICKER_CASHTAG("ticker-cashtag", 0.95),
    /** {@code NASDAQ: ON}, {@code (TWSE: 2330)}. */
    TICKER_EXCHANGE("ticker-exchange", 0.95),
    /** {@code (ANET)}, {@code (AMD, NVDA)}. */
    TICKER_PARENTHESISED("ticker-parenthesised", 0.95),
    /** {@code 2345.TW}, {@code AI.PA}. */
    TICKER_SUFFIXED("ticker-suffixed", 0.95),
    /**
     * {@code ANET} in prose: US listings of three letters or more that are no common
     * word.
     */
    TICKER_IN_PROSE("ticker-in-prose", 0.8),
    /** A company's name. */
    COMPANY_NAME("company-name", 0.9),
    /** One of a company's aliases. */
    COMPANY_ALIAS("company-alias", 0.9),
    /** A term the source lists as related. */
    DECLARED_RELATED("declared-related", 1.0),
    /** A glossary term's title. */
    TERM_TITLE("term-title", 0.9),
    /** One of a glossary term's aliases. */
    TERM_ALIAS("term-alias", 0.85),
    /**
     * The layer the source declares (a term's {@code layerHint}, a signal's layer hints).
     */
    DECLARED_LAYER("declared-layer", 1.0),
    /** A layer's name. */
    LAYER_NAME("layer-name", 0.7),
    /** One of a layer's aliases ({@code fabric layer}). */
    LAYER_ALIAS("layer-alias", 0.7),
    /**
     * The primary layer of a tagged company: 0.5 + 0.1 per company on it, at most 0.9.
     */
    COMPANY_PRIMARY_LAYER("company-primary-layer", 0.9),
    /**
     * The declared layer of a glossary term found in the text: 0.5 + 0.1 per such term,
     * at most 0.8.
     */
    TERM_LAYER("term-layer", 0.8);

    /**
     * A company name or alias that is an acronym written exactly ({@code ASE},
     * {@code GF}).
     */
    static final double ACRONYM_NAME = 0.85;

    /**
     * A company name that is or starts with an ordinary English word ({@code Micron},
     * {@code Arm}).
     */
    static final double ORDINARY_WORD_NAME = 0.8;

    /** An ordinary-word company name alone at the start of a sentence. */
    static final double SENTENCE_START_NAME = 0.7;

    /** A term title or alias that is a generic word ({@code training}, {@code yield}). */
    static final double GENERIC_TERM_NAME = 0.6;

    private static final double DERIVED_BASE = 0.5;

    private static final double DERIVED_STEP = 0.1;

    private final String id;

    private final double confidence;

    TagRule(String id, double confidence) {
        this.id = id;
        this.confidence = confidence;
    }

    /**
     * @return the rule's name as evidence records it, e.g. {@code company-name}
     */
    String id() {
        return id;
    }

    /**
     * @return the confidence of a tag by this rule alone, 0..1; for derived layer rules,
     * the cap
     */
    double confidence() {
        return confidence;
    }

    /**
     * The confidence of a layer derived from {@code count} companies or terms on it.
     * @param count how many tags point at the layer, at least 1
     * @return 0.5 + 0.1 per tag, at most this rule's {@link #confidence()}
     */
    double derived(int count) {
        return Math.min(confidence, DERIVED_BASE + DERIVED_STEP * count);
    }

}
