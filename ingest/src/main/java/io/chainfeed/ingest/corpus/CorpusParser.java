package io.chainfeed.ingest.corpus;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.chain.reference.ChainReference;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.chain.reference.TextFiles.NamedText;
import io.chainfeed.chain.reference.YamlFields;
import io.chainfeed.ingest.TermContent;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a corpus's file texts into a checked {@link Corpus}: every field and every
 * reference (the rules are listed on {@link Corpus}); the first problem found is a
 * {@link CorpusException} naming the file and field.
 */
final class CorpusParser {

    private static final Set<String> TERM_FIELDS = Set.of("slug", "title", "aliases", "definition", "layer",
            "companies", "related", "sources", "disclaimer");

    private static final Set<String> SOURCE_FIELDS = Set.of("name", "url");

    private CorpusParser() {
    }

    /**
     * @param reference the chain's reference data, already read and checked
     * @param termFiles the {@code terms/*.md} files, in name order
     * @return the checked corpus
     * @throws CorpusException at the first problem
     */
    static Corpus parse(ChainReference reference, List<NamedText> termFiles) {
        return new Corpus(reference, parseTerms(termFiles, reference));
    }

    /** A term as read from its file, before its references are resolved. */
    private record TermDraft(TermFile file, String slug, String title, List<String> aliases, String definition,
            String layer, List<String> companies, List<String> related, List<Source> sources, String disclaimer) {
    }

    private static List<TermContent> parseTerms(List<NamedText> files, ChainReference reference) {
        Map<String, TermDraft> drafts = new LinkedHashMap<>();
        for (NamedText named : files) {
            TermDraft draft = draft(named, reference);
            if (drafts.containsKey(draft.slug())) {
                throw draft.file().frontMatter().error("slug", "duplicate term slug '" + draft.slug() + "'");
            }
            drafts.put(draft.slug(), draft);
        }
        List<TermContent> terms = new ArrayList<>();
        for (TermDraft d : drafts.values()) {
            YamlFields fm = d.file().frontMatter();
            List<CompanyMention> mentions = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < d.companies().size(); i++) {
                String display = d.companies().get(i);
                Company company = reference.companyByDisplaySymbol(display).orElse(null);
                if (company == null) {
                    throw fm.error("companies[" + i + "]",
                            "'" + display + "' is not the display symbol of any company in companies.yaml");
                }
                if (!seen.add(display)) {
                    throw fm.error("companies[" + i + "]", "'" + display + "' is listed twice");
                }
                mentions.add(CompanyMention.newBuilder().setName(company.getName()).setSymbol(display).build());
            }
            List<RelatedTerm> related = new ArrayList<>();
            seen.clear();
            for (int i = 0; i < d.related().size(); i++) {
                String slug = d.related().get(i);
                TermDraft target = drafts.get(slug);
                if (target == null) {
                    throw fm.error("related[" + i + "]",
                            "no term has slug '" + slug + "' (expected terms/" + slug + CorpusLoader.TERM_SUFFIX + ")");
                }
                if (slug.equals(d.slug())) {
                    throw fm.error("related[" + i + "]", "a term cannot be related to itself");
                }
                if (!seen.add(slug)) {
                    throw fm.error("related[" + i + "]", "'" + slug + "' is listed twice");
                }
                related.add(RelatedTerm.newBuilder()
                    .setSlug(slug)
                    .setTitle(target.title())
                    .setSummary(target.definition())
                    .build());
            }
            terms.add(new TermContent(d.slug(), d.title(), d.aliases(), d.definition(), d.file().sections(), d.layer(),
                    mentions, related, d.sources(),
                    d.disclaimer() == null ? TermContent.DEFAULT_DISCLAIMER : d.disclaimer(), Corpus.ORIGIN));
        }
        terms.sort(Comparator.comparing(TermContent::slug));
        return terms;
    }

    private static TermDraft draft(NamedText named, ChainReference reference) {
        TermFile file = TermFile.parse(named.name(), named.text());
        YamlFields fm = file.frontMatter();
        fm.allowOnly(TERM_FIELDS);
        String stem = named.fileName().substring(0, named.fileName().length() - CorpusLoader.TERM_SUFFIX.length());
        String slug = fm.requiredSlug("slug");
        if (!slug.equals(stem)) {
            throw fm.error("slug", "'" + slug + "' must equal the file name '" + stem + "'");
        }
        String title = fm.requiredText("title");
        List<String> aliases = fm.textList("aliases");
        String definition = fm.requiredText("definition");
        String layer = fm.requiredText("layer");
        if (reference.layer(layer).isEmpty()) {
            throw fm.error("layer", "unknown layer id '" + layer + "'");
        }
        List<String> companies = fm.textList("companies");
        List<String> related = fm.textList("related");
        List<Source> sources = new ArrayList<>();
        for (YamlFields source : fm.requiredObjectList("sources")) {
            source.allowOnly(SOURCE_FIELDS);
            String name = source.requiredText("name");
            String url = source.requiredText("url");
            checkUrl(source, url);
            sources.add(Source.newBuilder().setName(name).setUrl(url).build());
        }
        String disclaimer = fm.optionalText("disclaimer");
        Set<String> keys = new HashSet<>();
        for (Section s : file.sections()) {
            keys.add(s.getKey());
        }
        if (!keys.contains(TermFile.WHAT_IT_MEANS)) {
            throw new CorpusException(named.name(), "body", "missing section '## What it means'");
        }
        if (!keys.contains(TermFile.WHY_IT_MATTERS)) {
            throw new CorpusException(named.name(), "body", "missing section '## Why it matters to investors'");
        }
        return new TermDraft(file, slug, title, aliases, definition, layer, companies, related, sources, disclaimer);
    }

    private static void checkUrl(YamlFields source, String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (scheme == null || !(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                throw source.error("url", "'" + url + "' is not an absolute http(s) URL");
            }
        }
        catch (URISyntaxException e) {
            throw source.error("url", "'" + url + "' is not a valid URL: " + e.getReason());
        }
    }

}
