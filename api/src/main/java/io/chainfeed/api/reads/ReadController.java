package io.chainfeed.api.reads;

import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.settings.ApiProperties;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.io.IOException;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/reads/{id}}: one read with every tag and its evidence; {@code GET
 * /api/v1/reads/{id}/related}: the reads closest to it in meaning. 404 problem if the
 * read is absent, 400 for a size out of range.
 */
@RestController
@RequestMapping("/api/v1/reads")
@Validated
@Tag(name = "reads")
@RequiredArgsConstructor
class ReadController {

    private final ReadLookups reads;

    private final ApiProperties settings;

    @Operation(operationId = "getRead", summary = "One read with every tag and its evidence")
    @GetMapping("/{id}")
    ReadView read(@PathVariable String id) throws IOException {
        return reads.get(id)
            .map(doc -> ReadViews.view(doc, true))
            .orElseThrow(() -> new NotFoundException("no read with id '" + id + "'"));
    }

    @Operation(operationId = "getRelatedReads", summary = "The reads closest to a read in meaning",
            description = "Nearest by sentence vector (approximate kNN), most similar first: the read itself, its "
                    + "reposts (the other reads of its story) and chain-state reads are left out, and so is any read "
                    + "with a cosine similarity under 0.3. Empty while the read's vector is not written yet (a few "
                    + "seconds after it is searchable by its words).")
    @GetMapping("/{id}/related")
    RelatedReads related(@PathVariable String id, @RequestParam(defaultValue = "5") @Min(1) @Max(20) int size)
            throws IOException {
        // The least cosine a related read needs: the floor under which a hybrid search
        // drops a vector hit (chainfeed.api.search.hybrid.min-similarity).
        List<ReadLookups.Closest> closest = reads.closest(id, size, settings.search().hybrid().minSimilarity())
            .orElseThrow(() -> new NotFoundException("no read with id '" + id + "'"));
        return new RelatedReads(id, closest.stream().map(RelatedReads.RelatedRead::of).toList());
    }

}
