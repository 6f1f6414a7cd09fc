package io.chainfeed.api.reads;

import io.chainfeed.schemas.ReadDocument;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The answer of {@code GET /api/v1/reads/{id}/related}.
 *
 * @param id the read asked about
 * @param related the reads closest to it in meaning, most similar first
 */
@Schema(name = "RelatedReads")
public record RelatedReads(String id, List<RelatedRead> related) {

    /**
     * One read near the one asked about.
     *
     * @param id its read id
     * @param kind term or signal
     * @param title its title
     * @param summary its summary
     * @param observedAt a signal's observation instant (ISO-8601 UTC), null for a term
     * @param similarity cosine similarity of the two reads' sentence vectors, -1 to 1,
     * rounded to three decimals
     * @param page where a reader opens it: a term's page, else the read's own answer
     */
    public record RelatedRead(String id, String kind, String title, String summary, String observedAt,
            double similarity, String page) {

        static RelatedRead of(ReadLookups.Closest c) {
            ReadDocument d = c.read();
            String page = "term".equals(d.kind()) && d.slug() != null
                    ? "/terms/" + URLEncoder.encode(d.slug(), StandardCharsets.UTF_8)
                    : "/api/v1/reads/" + URLEncoder.encode(d.id(), StandardCharsets.UTF_8);
            return new RelatedRead(d.id(), d.kind(), d.title(), d.summary(), d.observedAt(),
                    Math.round(c.similarity() * 1000) / 1000.0, page);
        }

    }

}
