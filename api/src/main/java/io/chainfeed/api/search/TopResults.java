package io.chainfeed.api.search;

import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.schemas.CompanyDirectory;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * The "top result" of a search (Algolia's and Elastic Search UI's name for it): the page
 * of the thing a query names, shown before the reads. A query names a thing when its
 * subject ({@link QueryIntent#subject}, the words left once question words, filler and
 * constraint talk are set aside) is, as a whole, one of its names: a glossary term's
 * title or alias ({@link SearchCatalog}), a chain layer's name or alias
 * ({@link ReferenceLayers}), or a company's ticker, id, name or alias
 * ({@link QueryWords#company}). "what is CoWoS" and "CoWoS shortage" name the CoWoS term,
 * "memory layer" the memory layer, "NVDA" and "Nvidia suppliers" Nvidia; "Samsung HBM
 * qualification" names nothing as a whole and has no top result. When the subject names
 * more than one kind of thing, a term comes before a layer ("HBM" is a term and an alias
 * of the memory layer) and a layer before a company; but when the term is the layer's own
 * (same slug as the layer id: "advanced packaging", "network fabric"), the layer is the
 * top result and the term's read, lifted by its name, the first of the results.
 */
@Component
public class TopResults {

    /**
     * The thing a query names.
     *
     * @param kind {@code term}, {@code layer} or {@code company}
     * @param id {@code term:<slug>} (the term's read id), {@code layer:<id>} or
     * {@code company:<id>}
     * @param key the slug, layer id or company id
     * @param name its display name
     * @param url its page on this site
     */
    @Schema(name = "TopResult")
    public record Entity(String kind, String id, String key, String name, String url) {
    }

    /**
     * @param query the query, analysed
     * @return the thing the query's subject names as a whole, if any
     */
    public Optional<Entity> find(AnalysedQuery query) {
        QueryText parsed = query.parsed();
        if (parsed.isEmpty() || parsed.groups().stream().anyMatch(g -> g.size() != 1)) {
            return Optional.empty();
        }
        if (query.intent().subjectPiece().isEmpty()) {
            return Optional.empty();
        }
        SearchCatalog.TermNames term = query.subjectTerm();
        Optional<ChainLayer> layer = Optional.ofNullable(query.layer());
        if (term != null && !(layer.isPresent() && layer.get().getId().equals(term.slug()))) {
            return Optional
                .of(new Entity("term", "term:" + term.slug(), term.slug(), term.title(), "/terms/" + enc(term.slug())));
        }
        if (layer.isPresent()) {
            // Also when the term of the same name explains the layer itself ("advanced
            // packaging",
            // "network fabric"): its read is the first result already, the layer's page
            // comes above it.
            ChainLayer l = layer.get();
            return Optional
                .of(new Entity("layer", "layer:" + l.getId(), l.getId(), l.getName(), "/layers/" + enc(l.getId())));
        }
        return Optional.ofNullable(query.subjectCompany())
            .map(c -> new Entity("company", "company:" + c.getId(), c.getId(), c.getName(),
                    "/companies/" + enc(CompanyDirectory.canonicalSymbol(c))));
    }

    /**
     * Words that ask about a layer rather than name one ("memory layer status", "which
     * layer is short of power").
     */
    static final Set<String> LAYER_WORDS = Set.of("layer", "layers", "status");

    /**
     * The chain layer some words name: the layer whose name, id or one of whose aliases
     * is those words; failing that, when the words ask about a layer
     * ({@link #LAYER_WORDS}) the layer the other words name that way, or else the one
     * layer whose name (or, when no name holds them, the one layer one of whose aliases)
     * holds every other word ("which layer is short of power": the layer named "Energy
     * and power").
     * @param all the chain layers
     * @param words the words of a text ({@link QueryText#words})
     * @return that layer (the smallest id if several are named exactly), or empty
     */
    static Optional<ChainLayer> layerNamed(List<ChainLayer> all, List<String> words) {
        Optional<ChainLayer> exact = namedExactly(all, words);
        if (exact.isPresent() || words.isEmpty()) {
            return exact;
        }
        List<String> rest = words.stream().filter(w -> !LAYER_WORDS.contains(w)).toList();
        if (rest.isEmpty() || rest.size() == words.size()) {
            return Optional.empty();
        }
        exact = namedExactly(all, rest);
        if (exact.isPresent()) {
            return exact;
        }
        List<ChainLayer> byName = all.stream().filter(l -> QueryText.words(l.getName()).containsAll(rest)).toList();
        if (!byName.isEmpty()) {
            return byName.size() == 1 ? Optional.of(byName.get(0)) : Optional.empty();
        }
        List<ChainLayer> byAlias = all.stream()
            .filter(l -> l.getAliases().stream().anyMatch(a -> QueryText.words(a).containsAll(rest)))
            .toList();
        return byAlias.size() == 1 ? Optional.of(byAlias.get(0)) : Optional.empty();
    }

    private static Optional<ChainLayer> namedExactly(List<ChainLayer> all, List<String> words) {
        if (words.isEmpty()) {
            return Optional.empty();
        }
        return all.stream()
            .filter(l -> QueryText.words(l.getName()).equals(words) || QueryText.words(l.getId()).equals(words)
                    || l.getAliases().stream().anyMatch(a -> QueryText.words(a).equals(words)))
            .min(Comparator.comparing(ChainLayer::getId));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

}
