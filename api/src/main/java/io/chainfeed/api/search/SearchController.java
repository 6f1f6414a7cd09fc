package io.chainfeed.api.search;

import io.chainfeed.api.web.BadRequestException;
import io.chainfeed.api.web.ReadViews;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/search}: reads matching the text, best first, each with highlighted snippets,
 * layers, companies (symbol, name, MIC), related terms, sources and the disclaimer; facets with counts;
 * a cursor for the next page. Tag evidence only with {@code evidence=true}.
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "search", description = "Search research notes")
class SearchController {
    /** Longest query accepted, in characters. */
    static final int MAX_QUERY_CHARS = 1000;
    /** Largest page. */
    static final int MAX_PAGE_SIZE = 50;

    private final ReadSearch search;

    SearchController(ReadSearch search) {
        this.search = search;
    }

    @GetMapping("/search")
    @Operation(summary = "Search reads", description = """
            Any text is accepted. "Quoted phrases" match as phrases, -word or -"a phrase" excludes, \
            `a OR b` (or `a | b`) matches either; every other piece is required, falling back to any piece \
            when no read has all of them (`mode`: `all` or `any`). Lower-case words tolerate typos; upper-case \
            pieces (tickers such as 2345.TW, acronyms) match exactly. English stemming applies. A glossary \
            term's own read ranks first for its title, aliases and acronym expansions, and each name of a term \
            also finds its other names. Pages: pass `nextCursor` back as `cursor`, with the same q and filters.""")
    Map<String, Object> search(
            @RequestParam @NotBlank @Size(max = MAX_QUERY_CHARS, message = "must be at most {max} UTF-16 code units (characters outside the BMP, such as emoji, count as two)") String q,
            @RequestParam(defaultValue = "10") @Min(1) @Max(MAX_PAGE_SIZE) int size,
            @Parameter(description = "layer ids, repeatable (OR)") @RequestParam(required = false) List<String> layer,
            @Parameter(description = "company symbols, exact, repeatable (OR), e.g. 2345.TW")
            @RequestParam(required = false) List<String> company,
            @Parameter(description = "only reads where the company is a primary subject")
            @RequestParam(defaultValue = "false") boolean primary,
            @Parameter(description = "related-term slugs, repeatable (OR)") @RequestParam(required = false) List<String> term,
            @Parameter(description = "term or signal, repeatable") @RequestParam(required = false) List<String> kind,
            @Parameter(description = "updated at or after: yyyy-MM-dd or an ISO-8601 instant")
            @RequestParam(required = false) String from,
            @Parameter(description = "updated before: yyyy-MM-dd (exclusive) or an ISO-8601 instant")
            @RequestParam(required = false) String to,
            @Parameter(description = "nextCursor of the previous page") @RequestParam(required = false) @Size(max = 4096) String cursor,
            @RequestParam(defaultValue = "false") boolean evidence) throws IOException {
        ReadSearch.Filters filters = new ReadSearch.Filters(list(layer), list(company), primary, list(term),
                list(kind), instant("from", from), instant("to", to));
        ReadSearch.Page page = search.search(q, filters, size, cursor, evidence);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", q);
        out.put("total", page.total());
        out.put("mode", page.mode());
        out.put("results", page.matches().stream().map(m -> {
            Map<String, Object> view = ReadViews.view(m.source(), evidence);
            view.put("score", m.score());
            view.put("snippets", m.snippets());
            view.put("bestSection", m.bestSection());
            return view;
        }).toList());
        out.put("facets", page.facets());
        out.put("nextCursor", page.nextCursor());
        out.put("tookMs", page.tookMs());
        return out;
    }

    private static List<String> list(List<String> values) {
        return values == null ? List.of() : values.stream().map(String::strip).filter(v -> !v.isEmpty()).distinct()
                .toList();
    }

    static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new BadRequestException("invalid-parameter",
                    name + ": not a date (yyyy-MM-dd) or an ISO-8601 instant: " + value);
        }
    }
}
