package io.chainfeed.api.search;

import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a page of {@link ReadSearch} is put together from Elasticsearch's answers: the
 * matches of its hits (snippets, best section, reposts), its facets, and the text of a
 * highlighted fragment.
 */
final class Matches {

    /** The terms facets of a page, in the order of the answer's {@code facets}. */
    private static final List<String> FACETS = List.of("layer", "company", "term", "kind");

    private Matches() {
    }

    /**
     * How the story key of a read that is not a signal starts: such a read is its own
     * story (ReadDocuments.story), so it has no reposts.
     */
    static final String OWN_STORY = "read\n";

    /** A story's reads that match a page's query: how many, and the newest of them. */
    record Story(long count, List<ReadDocument> newest) {
    }

    /**
     * The facets of an answer: the terms facets of {@link #FACETS} (ids with labels),
     * then {@code updated} (months).
     */
    static Map<String, List<ReadSearch.FacetValue>> facets(SearchAnswer response) {
        Map<String, List<ReadSearch.FacetValue>> facets = new LinkedHashMap<>();
        for (String name : FACETS) {
            List<ReadSearch.FacetValue> values = new ArrayList<>();
            for (SearchAnswer.Bucket bucket : response.buckets(name)) {
                String key = String.valueOf(bucket.key());
                String[] ref = "kind".equals(name) ? new String[] { key, key } : SearchCatalog.split(key);
                values.add(new ReadSearch.FacetValue(ref[0], ref[1], bucket.docCount()));
            }
            facets.put(name, values);
        }
        List<ReadSearch.FacetValue> months = new ArrayList<>();
        for (SearchAnswer.Bucket bucket : response.buckets("updated")) {
            months.add(new ReadSearch.FacetValue(bucket.keyAsString(), bucket.keyAsString(), bucket.docCount()));
        }
        facets.put("updated", months);
        return facets;
    }

    static ReadSearch.Match match(SearchAnswer.Hit hit, Map<String, Story> stories) {
        ReadDocument source = hit.source();
        Map<String, List<String>> highlight = hit.highlight() == null ? Map.of() : hit.highlight();
        List<String> snippets = new ArrayList<>();
        List<String> body = highlight.getOrDefault(ReadFields.SECTIONS_BODY, List.of());
        snippets.addAll(body);
        snippets.addAll(highlight.getOrDefault(ReadFields.SUMMARY, List.of()));
        String bestSection = null;
        if (!body.isEmpty()) {
            String plain = unhighlight(body.get(0));
            for (ReadDocument.Section section : source.sections()) {
                if (section.body() != null && section.body().contains(plain)) {
                    bestSection = section.key();
                    break;
                }
            }
        }
        Story story = source.story() != null ? stories.get(source.story()) : null;
        long others = story == null ? 0 : Math.max(0, story.count() - 1);
        return new ReadSearch.Match(source, hit.score() == null ? 0 : hit.score(), snippets, bestSection,
                reposts(story, source), others);
    }

    /**
     * The other reads of a collapsed hit's story (its newest reads less itself), newest
     * first: id, sources and observedAt of each.
     */
    private static List<ReadDocument> reposts(Story story, ReadDocument source) {
        if (story == null) {
            return List.of();
        }
        return story.newest().stream().filter(other -> !source.id().equals(other.id())).toList();
    }

    /** The text of a highlighted, HTML-escaped fragment. */
    static String unhighlight(String fragment) {
        return fragment.replace("<mark>", "")
            .replace("</mark>", "")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#39;", "'")
            .replace("&#x2F;", "/")
            .replace("&amp;", "&")
            .strip();
    }

}
