package io.chainfeed.api.search;

import io.chainfeed.api.web.ReadViews;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/search?q=&size=&evidence=}: reads matching the text, best first, each with
 * highlighted snippets, layers, companies (symbol, name, MIC), related terms, sources and the
 * disclaimer. Tag evidence only with {@code evidence=true}.
 */
@RestController
@RequestMapping("/api/v1")
@Validated
class SearchController {
    /** Longest query accepted, in characters. */
    static final int MAX_QUERY_CHARS = 1000;

    private final ReadSearch search;

    SearchController(ReadSearch search) {
        this.search = search;
    }

    @GetMapping("/search")
    Map<String, Object> search(
            @RequestParam @NotBlank @Size(max = MAX_QUERY_CHARS) String q,
            @RequestParam(defaultValue = "10") @Min(1) @Max(50) int size,
            @RequestParam(defaultValue = "false") boolean evidence) throws IOException {
        ReadSearch.Page page = search.search(q, size);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", q);
        out.put("total", page.total());
        out.put("results", page.matches().stream().map(m -> {
            Map<String, Object> view = ReadViews.view(m.source(), evidence);
            view.put("score", m.score());
            view.put("snippets", m.snippets());
            return view;
        }).toList());
        return out;
    }
}
