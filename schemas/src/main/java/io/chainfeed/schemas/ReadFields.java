package io.chainfeed.schemas;

/**
 * The reads index's field names, the one place queries, sorts, source filters and
 * highlights take them from. Top-level names are {@link ReadDocument}'s components;
 * dotted names are sub-fields (an object's member or a multi-field such as
 * {@code title.exact}). A test in the platform module checks every constant against the
 * strict mapping {@code io/chainfeed/platform/reads-index-v1.json}.
 */
public final class ReadFields {

    public static final String ID = "id";

    public static final String KIND = "kind";

    public static final String SLUG = "slug";

    public static final String TITLE = "title";

    /** The whole title, lower-cased (keyword, {@code folded} normalizer). */
    public static final String TITLE_EXACT = "title.exact";

    public static final String ALIASES = "aliases";

    /** Each whole alias, lower-cased. */
    public static final String ALIASES_EXACT = "aliases.exact";

    public static final String SUMMARY = "summary";

    public static final String SECTIONS = "sections";

    public static final String SECTIONS_HEADING = "sections.heading";

    public static final String SECTIONS_BODY = "sections.body";

    public static final String LAYERS = "layers";

    public static final String LAYERS_ID = "layers.id";

    public static final String LAYERS_NAME = "layers.name";

    public static final String LAYERS_PRIMARY = "layers.primary";

    public static final String LAYERS_EVIDENCE = "layers.evidence";

    public static final String COMPANIES = "companies";

    public static final String COMPANIES_ID = "companies.id";

    public static final String COMPANIES_NAME = "companies.name";

    public static final String COMPANIES_SYMBOL = "companies.symbol";

    public static final String COMPANIES_PRIMARY = "companies.primary";

    public static final String COMPANIES_EVIDENCE = "companies.evidence";

    public static final String TERMS = "terms";

    public static final String TERMS_SLUG = "terms.slug";

    public static final String TERMS_TITLE = "terms.title";

    public static final String TERMS_EVIDENCE = "terms.evidence";

    public static final String TERMS_EVIDENCE_RULE = "terms.evidence.rule";

    public static final String TERMS_EVIDENCE_FIELD = "terms.evidence.field";

    public static final String TERMS_EVIDENCE_START = "terms.evidence.start";

    public static final String TERMS_EVIDENCE_END = "terms.evidence.end";

    public static final String TERMS_EVIDENCE_TEXT = "terms.evidence.text";

    public static final String SOURCES = "sources";

    public static final String DISCLAIMER = "disclaimer";

    public static final String VERSION = "version";

    public static final String PREVIOUS_VERSION = "previousVersion";

    public static final String UPDATED_AT = "updatedAt";

    public static final String PUBLISHED_AT = "publishedAt";

    public static final String OBSERVED_AT = "observedAt";

    public static final String CHANGES = "changes";

    public static final String SIGNAL = "signal";

    public static final String SIGNAL_DIRECTION = "signal.direction";

    public static final String SIGNAL_MAGNITUDE = "signal.magnitude";

    public static final String SIGNAL_UNTIL = "signal.until";

    public static final String SIGNAL_DECIDED_BY = "signal.decidedBy";

    public static final String SIGNAL_CONFIDENCE = "signal.confidence";

    public static final String SIGNAL_HELD = "signal.held";

    public static final String LAYER_IDS = "layerIds";

    public static final String PRIMARY_LAYER_IDS = "primaryLayerIds";

    public static final String COMPANY_SYMBOLS = "companySymbols";

    public static final String PRIMARY_COMPANY_SYMBOLS = "primaryCompanySymbols";

    public static final String TERM_SLUGS = "termSlugs";

    public static final String LAYER_REFS = "layerRefs";

    public static final String COMPANY_REFS = "companyRefs";

    public static final String TERM_REFS = "termRefs";

    public static final String STORY = "story";

    /**
     * The embedder's sentence vector ({@code dense_vector}); not in {@link ReadDocument}.
     */
    public static final String EMBEDDING = "embedding";

    /** The model the vector was made with; not in {@link ReadDocument}. */
    public static final String EMBEDDING_MODEL = "embeddingModel";

    /** The read version the vector was made for; not in {@link ReadDocument}. */
    public static final String EMBEDDED_VERSION = "embeddedVersion";

    private ReadFields() {
    }

}
