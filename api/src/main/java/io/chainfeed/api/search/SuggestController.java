package io.chainfeed.api.search;

import io.chainfeed.api.reference.CompanyResolver;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Autocomplete, {@code GET /api/v1/suggest?q=&size=}: companies, glossary terms and chain
 * layers whose names start with, contain or nearly match the text ({@link Suggester}).
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "search", description = "Search research notes")
@RequiredArgsConstructor
class SuggestController {

    private final SearchCatalog catalog;

    private final Suggester suggester;

    private final CompanyResolver companies;

    @GetMapping("/suggest")
    @Operation(operationId = "suggest", summary = "Autocomplete",
            description = "Every company of the reference data (name, aliases, id, every "
                    + "listing's ticker and MIC-qualified symbol), glossary term (title, aliases) and chain layer (id, name), "
                    + "whether or not a read mentions it yet. Ranked: an exact ticker first, then an exact name, then names "
                    + "that start with the text, then names with a later word that does, then names within one or two edits. "
                    + "`suggestions` holds the best `size` of all kinds together; `terms`, `companies` and `layers` the best "
                    + "`size` of each.")
    Suggestions suggest(@RequestParam @NotBlank @Size(max = 100) String q,
            @RequestParam(defaultValue = "5") @Min(1) @Max(10) int size) throws IOException {
        List<Suggester.Suggestion> all = suggester.suggest(q, 500);
        Map<String, Long> companyReads = new HashMap<>();
        for (SearchCatalog.CompanyName c : catalog.companies()) {
            companies.find(c.symbol()).ifPresent(co -> companyReads.merge(co.getId(), c.reads(), Long::sum));
        }
        Map<String, Long> layerReads = new HashMap<>();
        for (SearchCatalog.LayerName l : catalog.layers()) {
            layerReads.put(l.id(), l.reads());
        }
        List<AnySuggestion> merged = new ArrayList<>();
        List<TermSuggestion> terms = new ArrayList<>();
        List<CompanySuggestion> companyList = new ArrayList<>();
        List<LayerSuggestion> layers = new ArrayList<>();
        for (Suggester.Suggestion s : all) {
            switch (s.kind()) {
                case COMPANY -> add(companyList, new CompanySuggestion(s.symbol(), s.id(), s.label(), s.matched(),
                        companyReads.getOrDefault(s.id(), 0L), "/api/v1/companies/" + s.symbol()), size);
                case TERM ->
                    add(terms, new TermSuggestion(s.id(), s.label(), s.matched(), "/api/v1/terms/" + s.id()), size);
                case LAYER -> add(layers,
                        new LayerSuggestion(s.id(), s.label(), s.matched(), layerReads.getOrDefault(s.id(), 0L)), size);
            }
            add(merged, new AnySuggestion(s.kind().name().toLowerCase(Locale.ROOT), s.id(), s.label(), s.symbol(),
                    s.matched(), s.href()), size);
        }
        return new Suggestions(q, merged, terms, companyList, layers);
    }

    /**
     * {@code GET /api/v1/suggest}: suggestions from the reference data.
     *
     * @param query the text as sent (control characters are refused before, by
     * {@code ControlCharacterGuard})
     * @param suggestions the best {@code size} of every kind together
     * @param terms the best {@code size} glossary terms
     * @param companies the best {@code size} companies
     * @param layers the best {@code size} chain layers
     */
    record Suggestions(String query, List<AnySuggestion> suggestions, List<TermSuggestion> terms,
            List<CompanySuggestion> companies, List<LayerSuggestion> layers) {
    }

    private static <T> void add(List<T> list, T suggestion, int size) {
        if (list.size() < size) {
            list.add(suggestion);
        }
    }

    /**
     * A company suggestion as {@code companies} lists it; {@code name} is the label,
     * {@code reads} its read count.
     */
    record CompanySuggestion(String symbol, String id, String name, String matched, long reads, String href) {
    }

    /** A glossary term suggestion as {@code terms} lists it. */
    record TermSuggestion(String slug, String title, String matched, String href) {
    }

    /** A chain layer suggestion as {@code layers} lists it. */
    record LayerSuggestion(String id, String name, String matched, long reads) {
    }

    /**
     * A suggestion of any kind as {@code suggestions} lists it; {@code page} is the web
     * page's path.
     */
    record AnySuggestion(String kind, String id, String label, String symbol, String matched, String page) {
    }

}
