package io.chainfeed.streams.tagging;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.TermTag;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.streams.tagging.TagAccumulators.CompanyAcc;
import io.chainfeed.streams.tagging.TagAccumulators.LayerAcc;
import io.chainfeed.streams.tagging.TagAccumulators.TermAcc;
import io.chainfeed.streams.tagging.TagDictionary.Entry;
import io.chainfeed.streams.tagging.TagDictionary.Kind;
import io.chainfeed.streams.tagging.TextMatcher.Accepted;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Tags one term update and assembles its {@link Read}: first what the source declares
 * (companies, related terms, the layer), then what each field names
 * ({@link TextMatcher}), then the hits that waited for corroboration, then the layers of
 * the tagged companies and terms. Decides which tags are primary (see {@link Tagger}).
 * One instance per read; not thread-safe.
 */
final class ReadAssembler {

    private static final String METADATA = "metadata";

    private static final Comparator<LayerTag> LAYER_ORDER = Comparator.comparing(LayerTag::getPrimary)
        .reversed()
        .thenComparing(Comparator.comparing(LayerTag::getConfidence).reversed());

    private static final Comparator<CompanyTag> COMPANY_ORDER = Comparator.comparing(CompanyTag::getPrimary)
        .reversed()
        .thenComparing(Comparator.comparing(CompanyTag::getConfidence).reversed());

    private static final Comparator<TermTag> TERM_ORDER = Comparator.comparing((TermTag t) -> t.getConfidence())
        .reversed();

    /**
     * A hit that passed the rules, waiting for corroboration; {@code lead}: in the title
     * or definition.
     */
    private record Deferred(Entry entry, double confidence, boolean lead, Evidence evidence) {
    }

    private final TagDictionary dictionary;

    private final TextMatcher matcher;

    private final Map<String, CompanyAcc> companyTags = new LinkedHashMap<>();

    private final Map<String, TermAcc> termTags = new LinkedHashMap<>();

    private final Map<String, LayerAcc> layerTags = new LinkedHashMap<>();

    private final List<Deferred> deferred = new ArrayList<>();

    /** Whether the source declares a layer that reference data knows. */
    private boolean layerDeclared;

    ReadAssembler(TagDictionary dictionary, TextMatcher matcher) {
        this.dictionary = dictionary;
        this.matcher = matcher;
    }

    /**
     * @param term a term update (or a signal shaped as one), not null
     * @return its read: id {@code term:<slug>}, kind TERM, the term's text, sources,
     * disclaimer and version, with layer, company and term tags, each list primary first,
     * then by confidence
     */
    Read assemble(TermUpdate term) {
        for (CompanyMention m : term.getCompanies()) {
            tagDeclaredCompany(m);
        }
        for (RelatedTerm r : term.getRelated()) {
            if (!r.getSlug().equals(term.getSlug())) {
                termTags.computeIfAbsent(r.getSlug(), k -> new TermAcc(k, r.getTitle(), r.getSummary()))
                    .add(1.0, true, evidence(TagRule.DECLARED_RELATED, r.getTitle()));
            }
        }
        tagDeclaredLayer(term.getLayerHint());

        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(Tagger.TITLE, term.getTitle());
        fields.put(Tagger.DEFINITION, term.getDefinition());
        for (Section s : term.getSections()) {
            fields.put(s.getKey(), s.getBody());
        }
        fields.forEach((field, text) -> tagText(term.getSlug(), field, text));
        for (Deferred h : deferred) {
            // Corroborated elsewhere in the read: an ordinary word at a sentence start,
            // or a generic alias.
            if (h.entry().kind() == Kind.COMPANY && companyTags.containsKey(h.entry().id())) {
                companyAcc(h.entry().id()).add(h.confidence(), h.lead(), h.evidence());
            }
            else if (h.entry().kind() == Kind.TERM && termTags.containsKey(h.entry().id())) {
                termAcc(h.entry().id()).add(h.confidence(), h.lead(), h.evidence());
            }
        }
        companyTags.values().forEach(CompanyAcc::settlePrimary);
        termTags.values().forEach(TermAcc::settlePrimary);
        deriveLayers(companyTags.values(), this::primaryLayerOf, c -> c.symbol.isEmpty() ? c.name : c.symbol,
                TagRule.COMPANY_PRIMARY_LAYER);
        deriveLayers(termTags.values(), this::declaredLayerOf, t -> t.title, TagRule.TERM_LAYER);

        return Read.newBuilder()
            .setId(Tagger.readId(term.getSlug()))
            .setKind(ReadKind.TERM)
            .setSlug(term.getSlug())
            .setTitle(term.getTitle())
            .setAliases(term.getAliases())
            .setSummary(term.getDefinition())
            .setSections(term.getSections())
            .setLayers(layerTags.values().stream().map(LayerAcc::toTag).sorted(LAYER_ORDER).toList())
            .setCompanies(companyTags.values().stream().map(CompanyAcc::toTag).sorted(COMPANY_ORDER).toList())
            .setTerms(termTags.values().stream().map(TermAcc::toTag).sorted(TERM_ORDER).toList())
            .setSources(term.getSources())
            .setDisclaimer(term.getDisclaimer())
            .setVersion(term.getVersion())
            .setUpdatedAt(term.getUpdatedAt())
            .build();
    }

    private void tagText(String self, String field, String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        boolean lead = field.equals(Tagger.TITLE) || field.equals(Tagger.DEFINITION);
        // A layer named in the title is a subject of the read; one named in the
        // definition is only when the
        // source declares none (CoWoS's definition names HBM, the memory CoWoS packages:
        // context, not subject).
        boolean layerLead = field.equals(Tagger.TITLE) || field.equals(Tagger.DEFINITION) && !layerDeclared;
        for (Accepted a : matcher.match(text, self)) {
            Entry entry = a.entry();
            Evidence ev = new Evidence(a.rule().id(), field, a.start(), a.end(), text.substring(a.start(), a.end()));
            if (a.deferred()) {
                deferred.add(new Deferred(entry, a.confidence(), lead, ev));
                continue;
            }
            switch (entry.kind()) {
                case COMPANY -> companyAcc(entry.id()).add(a.confidence(), lead, ev);
                case TERM -> termAcc(entry.id()).add(a.confidence(), lead, ev);
                case LAYER -> layerAcc(entry.id()).add(a.confidence(), layerLead, ev);
            }
        }
    }

    private void tagDeclaredCompany(CompanyMention m) {
        String text = m.getSymbol() == null ? m.getName() : m.getName() + " (" + m.getSymbol() + ")";
        String id = m.getSymbol() == null ? null : dictionary.companyBySymbol(m.getSymbol());
        if (id == null) {
            id = dictionary.companyByName(m.getName());
        }
        if (id == null) {
            // Not in reference data: keep what the source says, at lower confidence, so
            // nothing is lost.
            String sym = m.getSymbol() == null ? "" : m.getSymbol();
            String unresolved = "unresolved:" + TagDictionary.norm(m.getName()).replaceAll("[^a-z0-9]+", "-");
            companyTags.computeIfAbsent(unresolved, k -> new CompanyAcc(k, m.getName(), sym, ""))
                .add(TagRule.DECLARED_COMPANY_UNRESOLVED.confidence(), true,
                        evidence(TagRule.DECLARED_COMPANY_UNRESOLVED, text));
            return;
        }
        companyAcc(id).add(TagRule.DECLARED_COMPANY.confidence(), true, evidence(TagRule.DECLARED_COMPANY, text));
    }

    private void tagDeclaredLayer(String hint) {
        if (hint == null || hint.isBlank()) {
            return;
        }
        String id = dictionary.layerId(hint);
        if (id == null) {
            id = dictionary.layerNamedIn(hint);
        }
        if (id != null) {
            layerAcc(id).add(TagRule.DECLARED_LAYER.confidence(), true, evidence(TagRule.DECLARED_LAYER, hint));
            layerDeclared = true;
        }
    }

    /**
     * Tags the layers the given company or term tags point at, as passing mentions: each
     * layer once per tag behind it, all at the rule's {@link TagRule#derived(int)
     * derived} confidence.
     */
    private <T> void deriveLayers(Collection<T> tags, Function<T, String> layerOf, Function<T, String> label,
            TagRule rule) {
        Map<String, List<T>> byLayer = new LinkedHashMap<>();
        for (T t : tags) {
            String layer = layerOf.apply(t);
            if (layer != null) {
                byLayer.computeIfAbsent(layer, k -> new ArrayList<>()).add(t);
            }
        }
        byLayer.forEach((layerId, behind) -> {
            LayerAcc a = layerAcc(layerId);
            double confidence = rule.derived(behind.size());
            for (T t : behind) {
                a.add(confidence, false, evidence(rule, label.apply(t) + " -> " + layerId));
            }
        });
    }

    /**
     * @return the company's primary layer, when reference data knows it
     */
    private String primaryLayerOf(CompanyAcc c) {
        return c.primaryLayer != null && dictionary.isLayer(c.primaryLayer) ? c.primaryLayer : null;
    }

    /**
     * @return the declared layer of a term found in the text (not merely declared as
     * related)
     */
    private String declaredLayerOf(TermAcc t) {
        TermUpdate term = dictionary.term(t.slug);
        return !t.foundInText || term == null ? null : dictionary.layerId(term.getLayerHint());
    }

    private CompanyAcc companyAcc(String id) {
        CompanyAcc existing = companyTags.get(id);
        if (existing != null) {
            return existing;
        }
        // Whichever listing the text named (TSM, 2330.TW), the tag names the company by
        // its canonical
        // listing, so one company always carries one symbol (CompanyDirectory); the
        // evidence keeps what
        // the text wrote.
        Company c = dictionary.company(id);
        Listing listing = CompanyDirectory.canonicalListing(c).orElse(null);
        CompanyAcc a = new CompanyAcc(id, c.getName(), listing == null ? "" : listing.getDisplaySymbol(),
                listing == null ? "" : listing.getMic());
        a.primaryLayer = c.getPrimaryLayer();
        companyTags.put(id, a);
        return a;
    }

    private TermAcc termAcc(String slug) {
        TermUpdate t = dictionary.term(slug);
        return termTags.computeIfAbsent(slug,
                k -> new TermAcc(k, t == null ? k : t.getTitle(), t == null ? "" : t.getDefinition()));
    }

    private LayerAcc layerAcc(String id) {
        return layerTags.computeIfAbsent(id, k -> new LayerAcc(k, dictionary.layerName(k)));
    }

    /** Evidence from the read's metadata rather than its text: no offsets. */
    private static Evidence evidence(TagRule rule, String text) {
        // the all-fields constructor: no builder copies
        return new Evidence(rule.id(), METADATA, -1, -1, text);
    }

}
