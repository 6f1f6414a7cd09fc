package io.chainfeed.schemas;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Maps a {@link Read} to the JSON document stored in the reads index (written by the
 * streams indexer, read back by the api; mapping:
 * {@code io/chainfeed/platform/reads-index-v1.json}). Field names are the Avro field
 * names; {@code kind} is lower case; {@code updatedAt}, {@code publishedAt} and
 * {@code observedAt} are ISO-8601 UTC instants ({@code observedAt} null for a term);
 * {@code changes} lists {@code field}, {@code change}, {@code key}, {@code detail}
 * (computed by the streams module's {@code ReadChanges}); {@code signal} is a signal
 * read's values and who decided them ({@link SignalViews}), null for other reads.
 *
 * <p>
 * Versions: the document's {@code version} is the version people see, the read's
 * {@code sequence} (1, 2, 3 ...), and {@code previousVersion} the one before it (null for
 * version 1). The Avro {@code version}, an internal ordering key, is not in the document:
 * the indexer passes it as the document's external version. A read written before
 * sequences existed (sequence 0) keeps its old numbers until its next version.
 */
public final class ReadDocuments {

    private ReadDocuments() {
    }

    /**
     * The version a read's document shows as {@code version}: its sequence (1, 2, 3 ...)
     * when it has one, else its version.
     * @param read a read
     * @return the document's {@code version}
     */
    public static long version(Read read) {
        return read.getSequence() > 0 ? read.getSequence() : read.getVersion();
    }

    /**
     * @param read a tagged read
     * @return a JSON-ready tree of maps, lists, strings, numbers and booleans
     */
    public static Map<String, Object> toDocument(Read read) {
        return toDocument(read, null);
    }

    /**
     * @param read a tagged read
     * @param recordPublishedAt when the read's record was written to its topic (the Kafka
     * record timestamp), used as {@code publishedAt} when the read itself carries none
     * (written before the field existed); null: none known
     * @return a JSON-ready tree of maps, lists, strings, numbers and booleans
     */
    public static Map<String, Object> toDocument(Read read, Instant recordPublishedAt) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", read.getId());
        doc.put("kind", read.getKind().name().toLowerCase(Locale.ROOT));
        doc.put("slug", read.getSlug());
        doc.put("title", read.getTitle());
        doc.put("aliases", read.getAliases());
        doc.put("summary", read.getSummary());
        doc.put("sections", value(read.getSections()));
        doc.put("layers", value(read.getLayers()));
        doc.put("companies", value(read.getCompanies()));
        doc.put("terms", value(read.getTerms()));
        doc.put("sources", value(read.getSources()));
        doc.put("disclaimer", read.getDisclaimer());
        doc.put("version", version(read));
        if (read.getSequence() > 0) {
            doc.put("previousVersion", read.getSequence() > 1 ? read.getSequence() - 1 : null);
        }
        else {
            doc.put("previousVersion", read.getPreviousVersion());
        }
        doc.put("updatedAt", read.getUpdatedAt().toString());
        Instant published = read.getPublishedAt() != null ? read.getPublishedAt() : recordPublishedAt;
        doc.put("publishedAt", published == null ? null : published.toString());
        doc.put("observedAt", read.getObservedAt() == null ? null : read.getObservedAt().toString());
        doc.put("changes", value(read.getChanges()));
        doc.put("signal", read.getSignal() == null ? null : SignalViews.view(read.getSignal().getDirection(),
                read.getSignal().getMagnitude(), read.getSignal().getUntil(), read.getSignal().getDecision()));
        // Derived, flat copies of the tags: filters (a company as primary subject needs
        // its own field, the
        // tags being plain objects, not nested), facet labels and the API's suggest
        // catalogue.
        doc.put("layerIds", read.getLayers().stream().map(LayerTag::getId).distinct().toList());
        doc.put("primaryLayerIds",
                read.getLayers().stream().filter(LayerTag::getPrimary).map(LayerTag::getId).distinct().toList());
        doc.put("companySymbols", read.getCompanies().stream().map(CompanyTag::getSymbol).distinct().toList());
        doc.put("primaryCompanySymbols",
                read.getCompanies()
                    .stream()
                    .filter(CompanyTag::getPrimary)
                    .map(CompanyTag::getSymbol)
                    .distinct()
                    .toList());
        doc.put("termSlugs", read.getTerms().stream().map(TermTag::getSlug).distinct().toList());
        doc.put("layerRefs", read.getLayers().stream().map(t -> ref(t.getId(), t.getName())).distinct().toList());
        doc.put("companyRefs",
                read.getCompanies().stream().map(t -> ref(t.getSymbol(), t.getName())).distinct().toList());
        doc.put("termRefs", read.getTerms().stream().map(t -> ref(t.getSlug(), t.getTitle())).distinct().toList());
        doc.put("story", story(read));
        return doc;
    }

    /**
     * The story a read belongs to, for collapsing reposts in search: a signal read's
     * headline story key ({@link Stories#headlineKey} of its first source and its title,
     * the headline), any other read its own id.
     * @param read a tagged read
     * @return the key
     */
    public static String story(Read read) {
        if (read.getKind() != ReadKind.SIGNAL) {
            return "read\n" + read.getId();
        }
        Source source = read.getSources().isEmpty() ? null : read.getSources().get(0);
        return Stories.headlineKey(source == null ? null : source.getName(), source == null ? null : source.getUrl(),
                read.getTitle());
    }

    /** {@code <id>|<label>}: ids and symbols never contain {@code |}. */
    static String ref(String id, String label) {
        return id + "|" + label;
    }

    /**
     * The document form of a nested Avro record (a section, tag, source, change or
     * evidence): one entry per Avro field, named as the field and in schema order; a
     * nested record becomes a map the same way and a list a list of the document forms of
     * its items. Strings, numbers and booleans stay as they are.
     * @param record a record of the read's schema
     * @return its fields by name
     */
    static Map<String, Object> fields(IndexedRecord record) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Schema.Field f : record.getSchema().getFields()) {
            m.put(f.name(), value(record.get(f.pos())));
        }
        return m;
    }

    private static Object value(Object v) {
        if (v instanceof IndexedRecord r) {
            return fields(r);
        }
        if (v instanceof List<?> list) {
            return list.stream().map(ReadDocuments::value).toList();
        }
        return v;
    }

}
