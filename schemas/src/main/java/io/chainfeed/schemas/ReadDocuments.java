package io.chainfeed.schemas;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps a {@link Read} to the JSON document stored in the reads index (written by the streams indexer,
 * read back by the api; mapping:
 * {@code io/chainfeed/platform/reads-index-v1.json}). Field names are the Avro field names; {@code kind}
 * is lower case; {@code updatedAt}, {@code publishedAt} and {@code observedAt} are ISO-8601 UTC instants
 * ({@code observedAt} null for a term); {@code changes} lists {@code field}, {@code change}, {@code key},
 * {@code detail} (computed by the streams module's {@code ReadChanges}).
 *
 * <p>Versions: the document's {@code version} is the version people see, the read's {@code sequence}
 * (1, 2, 3 ...), and {@code previousVersion} the one before it (null for version 1). The Avro
 * {@code version}, an internal ordering key, is not in the document: the indexer passes it as the
 * document's external version. A read written before sequences existed (sequence 0) keeps its old
 * numbers until its next version.
 */
public final class ReadDocuments {
    private ReadDocuments() {
    }

    /**
     * @param read a tagged read
     * @return a JSON-ready tree of maps, lists, strings, numbers and booleans
     */
    public static Map<String, Object> toDocument(Read read) {
        return toDocument(read, null);
    }

    /**
     * @param read               a tagged read
     * @param recordPublishedAt  when the read's record was written to its topic (the Kafka record
     *                           timestamp), used as {@code publishedAt} when the read itself carries
     *                           none (written before the field existed); null: none known
     * @return a JSON-ready tree of maps, lists, strings, numbers and booleans
     */
    public static Map<String, Object> toDocument(Read read, java.time.Instant recordPublishedAt) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", read.getId());
        doc.put("kind", read.getKind().name().toLowerCase(Locale.ROOT));
        doc.put("slug", read.getSlug());
        doc.put("title", read.getTitle());
        doc.put("aliases", read.getAliases());
        doc.put("summary", read.getSummary());
        doc.put("sections", read.getSections().stream().map(ReadDocuments::section).toList());
        doc.put("layers", read.getLayers().stream().map(ReadDocuments::layer).toList());
        doc.put("companies", read.getCompanies().stream().map(ReadDocuments::company).toList());
        doc.put("terms", read.getTerms().stream().map(ReadDocuments::term).toList());
        doc.put("sources", read.getSources().stream().map(ReadDocuments::source).toList());
        doc.put("disclaimer", read.getDisclaimer());
        if (read.getSequence() > 0) {
            doc.put("version", read.getSequence());
            doc.put("previousVersion", read.getSequence() > 1 ? read.getSequence() - 1 : null);
        } else {
            doc.put("version", read.getVersion());
            doc.put("previousVersion", read.getPreviousVersion());
        }
        doc.put("updatedAt", read.getUpdatedAt().toString());
        java.time.Instant published = read.getPublishedAt() != null ? read.getPublishedAt() : recordPublishedAt;
        doc.put("publishedAt", published == null ? null : published.toString());
        doc.put("observedAt", read.getObservedAt() == null ? null : read.getObservedAt().toString());
        doc.put("changes", read.getChanges().stream().map(ReadDocuments::change).toList());
        // Derived, flat copies of the tags: filters (a company as primary subject needs its own field, the
        // tags being plain objects, not nested), facet labels and the API's suggest catalogue.
        doc.put("layerIds", read.getLayers().stream().map(LayerTag::getId).distinct().toList());
        doc.put("primaryLayerIds", read.getLayers().stream().filter(LayerTag::getPrimary).map(LayerTag::getId)
                .distinct().toList());
        doc.put("companySymbols", read.getCompanies().stream().map(CompanyTag::getSymbol).distinct().toList());
        doc.put("primaryCompanySymbols", read.getCompanies().stream().filter(CompanyTag::getPrimary)
                .map(CompanyTag::getSymbol).distinct().toList());
        doc.put("termSlugs", read.getTerms().stream().map(TermTag::getSlug).distinct().toList());
        doc.put("layerRefs", read.getLayers().stream().map(t -> ref(t.getId(), t.getName())).distinct().toList());
        doc.put("companyRefs", read.getCompanies().stream().map(t -> ref(t.getSymbol(), t.getName())).distinct()
                .toList());
        doc.put("termRefs", read.getTerms().stream().map(t -> ref(t.getSlug(), t.getTitle())).distinct().toList());
        return doc;
    }

    /** {@code <id>|<label>}: ids and symbols never contain {@code |}. */
    static String ref(String id, String label) {
        return id + "|" + label;
    }

    private static Map<String, Object> section(Section s) {
        return Map.of("key", s.getKey(), "heading", s.getHeading(), "body", s.getBody());
    }

    private static Map<String, Object> layer(LayerTag t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.getId());
        m.put("name", t.getName());
        m.put("confidence", t.getConfidence());
        m.put("primary", t.getPrimary());
        m.put("evidence", evidence(t.getEvidence()));
        return m;
    }

    private static Map<String, Object> company(CompanyTag t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.getId());
        m.put("name", t.getName());
        m.put("symbol", t.getSymbol());
        m.put("mic", t.getMic());
        m.put("confidence", t.getConfidence());
        m.put("primary", t.getPrimary());
        m.put("evidence", evidence(t.getEvidence()));
        return m;
    }

    private static Map<String, Object> term(TermTag t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slug", t.getSlug());
        m.put("title", t.getTitle());
        m.put("summary", t.getSummary());
        m.put("confidence", t.getConfidence());
        m.put("evidence", evidence(t.getEvidence()));
        return m;
    }

    private static Map<String, Object> change(ReadChange c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("field", c.getField());
        m.put("change", c.getChange());
        m.put("key", c.getKey());
        m.put("detail", c.getDetail());
        return m;
    }

    private static Map<String, Object> source(Source s) {
        return Map.of("name", s.getName(), "url", s.getUrl());
    }

    private static List<Map<String, Object>> evidence(List<Evidence> list) {
        return list.stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", e.getRule());
            m.put("field", e.getField());
            m.put("start", e.getStart());
            m.put("end", e.getEnd());
            m.put("text", e.getText());
            return m;
        }).toList();
    }
}
