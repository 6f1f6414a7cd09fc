package io.chainfeed.ingest.page;

import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.ingest.page.PageBlocks.Block;
import java.util.ArrayList;
import java.util.List;

/**
 * The "Related terms" section: each line holds titles that run into their summaries and
 * into the next title. The first block must split; later blocks are taken only while they
 * split (what follows is usually the site's own links).
 */
final class RelatedSectionExtractor {

    /** Heading of the section, as refusals name it. */
    static final String HEADING = "Related terms";

    private final RelatedLineSplitter splitter;

    private final TermSlugs slugs;

    /**
     * @param splitter splits a related-terms line into titles and summaries
     * @param slugs resolves a title to the slug of a known term
     */
    RelatedSectionExtractor(RelatedLineSplitter splitter, TermSlugs slugs) {
        this.splitter = splitter;
        this.slugs = slugs;
    }

    /**
     * @param page the page's parts
     * @param refusal where a missing line or a first line that cannot be split is
     * reported
     * @return the related terms, in page order; none without the section
     */
    List<RelatedTerm> extract(GlossaryPageLayout page, ParseRefusal refusal) {
        List<RelatedTerm> related = new ArrayList<>();
        if (page.has(GlossaryPageLayout.Part.RELATED)) {
            List<Block> relatedBlocks = page.part(GlossaryPageLayout.Part.RELATED);
            if (relatedBlocks.isEmpty()) {
                refusal.missing("related terms line under \"" + HEADING + "\"");
            }
            for (int bi = 0; bi < relatedBlocks.size(); bi++) {
                List<RelatedTerm> parsed = new ArrayList<>();
                List<String> failures = new ArrayList<>();
                for (String line : relatedBlocks.get(bi).lines()) {
                    for (String item : splitter.items(line)) {
                        RelatedLineSplitter.Item it = splitter.split(item);
                        if (it == null) {
                            failures.add(PageText.plain(item));
                        }
                        else {
                            parsed.add(new RelatedTerm(slugs.resolve(it.title()), it.title(), it.summary()));
                        }
                    }
                }
                if (bi == 0) {
                    refusal.report("related term title/summary split: ", failures);
                }
                else if (!failures.isEmpty()) {
                    break;
                }
                related.addAll(parsed);
            }
        }
        return related;
    }

}
