package io.chainfeed.api.reads;

import io.chainfeed.api.support.problem.NotFoundException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/reads/{id}}: one read with every tag and its evidence; 404 problem
 * if absent.
 */
@RestController
@RequestMapping("/api/v1/reads")
@Tag(name = "reads")
@RequiredArgsConstructor
class ReadController {

    private final ReadLookups reads;

    @Operation(operationId = "getRead", summary = "One read with every tag and its evidence")
    @GetMapping("/{id}")
    ReadView read(@PathVariable String id) throws IOException {
        return reads.get(id)
            .map(doc -> ReadViews.view(doc, true))
            .orElseThrow(() -> new NotFoundException("no read with id '" + id + "'"));
    }

}
