package io.chainfeed.api.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.embeddings.SentenceEmbedder;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The offline sweep of docs/search-by-meaning-prereg.md, run against a running embedded
 * default (api on 8080, Elasticsearch on 19200): for every query of a judged set it takes
 * the api's lexical first page ({@code ranking=lexical}: the entity box, then the
 * results), embeds every read of the index with each text variant and the query with the
 * same model, ranks the reads by cosine (state reads left out, one per story, as the
 * api's vector search does), and scores each fusion variant as {@link ReadSearch} fuses:
 * the entity box first, then the first 10 of the fused keys. Prints one line per variant
 * and set. Not a test: {@code java -cp ... io.chainfeed.api.search.HybridSweep}.
 */
public final class HybridSweep {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private HybridSweep() {
    }

    /** A read of the index: id, story, kind and its two texts. */
    private record Doc(String id, String story, String kind, String t1, String t2) {
    }

    /** A query's lexical first page: the entity box's id (or null), then the results. */
    private record Lexical(String top, List<String> ids, List<String> stories, boolean any) {
    }

    public static void main(String[] args) throws Exception {
        String api = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        String es = args.length > 1 ? args[1] : "http://127.0.0.1:19200";
        List<Doc> docs = docs(es);
        SentenceEmbedder model = SentenceEmbedder.shared();
        Map<String, List<float[]>> vectors = new HashMap<>();
        vectors.put("T1", model.embedAll(docs.stream().map(Doc::t1).toList()));
        vectors.put("T2", model.embedAll(docs.stream().map(Doc::t2).toList()));
        Map<String, RelevanceJudgments> sets = new LinkedHashMap<>();
        RelevanceJudgments judged = RelevanceJudgments.load("/search/relevance/judged.txt");
        sets.put("judged", judged);
        sets.put("judged-paraphrase", judged.withTag(RelevanceJudgments.PARAPHRASE));
        sets.put("judged-other", judged.withoutTag(RelevanceJudgments.PARAPHRASE));
        if (Boolean.getBoolean("sweep.heldout")) {
            sets.put("held-out", RelevanceJudgments.load("/search/relevance/held-out.txt"));
            sets.put("held-out-paraphrase", RelevanceJudgments.load("/search/relevance/held-out-paraphrase.txt"));
        }
        Map<String, Lexical> lexical = new HashMap<>();
        Map<String, float[]> queryVectors = new HashMap<>();
        for (RelevanceJudgments set : sets.values()) {
            for (RelevanceJudgments.Query q : set.queries()) {
                lexical.computeIfAbsent(q.text(), t -> lexical(api, t));
                queryVectors.computeIfAbsent(q.text(), t -> model.embed(ReadSearch.vectorText(QueryText.parse(t), t)));
            }
        }
        List<String> variants = new ArrayList<>();
        for (String text : List.of("T1", "T2")) {
            variants.add(text + " lexical");
            variants.add(text + " vector");
            for (int k : new int[] { 10, 60 }) {
                for (double w : new double[] { 0.5, 1.0 }) {
                    for (double s : new double[] { 0.0, 0.3, 0.45 }) {
                        variants.add(text + " k=" + k + " w=" + w + " s=" + s);
                    }
                }
            }
        }
        for (double wAny : new double[] { 1, 2, 3, 5 }) {
            variants.add("T2 k=60 w=1.0 s=0.3 wany=" + wAny);
        }
        if (System.getProperty("sweep.only") != null) {
            variants.retainAll(List.of(System.getProperty("sweep.only").split(",")));
        }
        for (String variant : variants) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-26s", variant));
            for (Map.Entry<String, RelevanceJudgments> set : sets.entrySet()) {
                RelevanceJudgments.Report r = set.getValue()
                    .measure(t -> ranked(variant, lexical.get(t), queryVectors.get(t), docs,
                            vectors.get(variant.substring(0, 2))));
                line.append(String.format(Locale.ROOT, "  %s nDCG %.3f best %.1f%%", set.getKey(), r.ndcg(),
                        100 * r.bestFirst()));
            }
            System.out.println(line);
        }
        if (args.length > 2) {
            String variant = args[2];
            for (RelevanceJudgments.Query q : judged.queries()) {
                RelevanceJudgments.Scored s = RelevanceJudgments.score(q, ranked(variant, lexical.get(q.text()),
                        queryVectors.get(q.text()), docs, vectors.get(variant.substring(0, 2))));
                System.out.printf(Locale.ROOT, "%.3f %s %s%n", s.ndcg(), q.text(),
                        s.ranked().stream().limit(4).toList());
            }
        }
    }

    private static List<String> ranked(String variant, Lexical lexical, float[] query, List<Doc> docs,
            List<float[]> vectors) {
        List<String> out = new ArrayList<>();
        if (lexical.top() != null) {
            out.add(lexical.top());
        }
        if (variant.endsWith("lexical")) {
            out.addAll(lexical.ids());
            return out;
        }
        List<RankFusion.VectorHit> nearest = new ArrayList<>();
        Map<String, String> idOfKey = new HashMap<>();
        for (int i = 0; i < lexical.ids().size(); i++) {
            idOfKey.put(lexical.stories().get(i), lexical.ids().get(i));
        }
        List<Integer> order = new ArrayList<>();
        double[] cos = new double[docs.size()];
        for (int i = 0; i < docs.size(); i++) {
            if (!"state".equals(docs.get(i).kind())) {
                cos[i] = SentenceEmbedder.cosine(query, vectors.get(i));
                order.add(i);
            }
        }
        order.sort(Comparator.comparingDouble((Integer i) -> cos[i]).reversed());
        for (int i : order.subList(0, Math.min(50, order.size()))) {
            Doc d = docs.get(i);
            nearest.add(new RankFusion.VectorHit(d.story(), cos[i]));
            idOfKey.putIfAbsent(d.story(), d.id());
        }
        if (variant.endsWith("vector")) {
            nearest.stream().limit(10).forEach(h -> out.add(idOfKey.get(h.key())));
            return out;
        }
        String[] p = variant.split(" ");
        double w = Double.parseDouble(p[2].substring(2));
        if (p.length > 4 && lexical.any()) {
            w = Double.parseDouble(p[4].substring(5));
        }
        RankFusion fusion = new RankFusion(Integer.parseInt(p[1].substring(2)), w,
                Double.parseDouble(p[3].substring(2)));
        fusion.fuse(lexical.stories(), nearest).stream().limit(10).forEach(f -> out.add(idOfKey.get(f.key())));
        return out;
    }

    private static Lexical lexical(String api, String text) {
        try {
            String url = api + "/api/v1/search?ranking=lexical&size=10&q="
                    + URLEncoder.encode(text, StandardCharsets.UTF_8);
            JsonNode d = JSON.readTree(
                    HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                        .body());
            String top = d.path("top").isObject() ? d.path("top").path("id").asText(null) : null;
            List<String> ids = new ArrayList<>();
            List<String> stories = new ArrayList<>();
            for (JsonNode r : d.path("results")) {
                String id = r.path("id").asText();
                ids.add(id);
                stories.add(id);
            }
            return new Lexical(top, ids, stories, "any".equals(d.path("mode").asText()));
        }
        catch (Exception e) {
            throw new IllegalStateException(text, e);
        }
    }

    private static List<Doc> docs(String es) throws Exception {
        String body = "{\"size\":2000,\"_source\":[\"id\",\"story\",\"kind\",\"title\",\"aliases\",\"summary\","
                + "\"sections.body\"],\"query\":{\"match_all\":{}}}";
        JsonNode d = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(es + "/chainfeed-reads/_search"))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString()).body());
        List<Doc> docs = new ArrayList<>();
        for (JsonNode h : d.path("hits").path("hits")) {
            JsonNode s = h.path("_source");
            StringBuilder t = new StringBuilder(s.path("title").asText());
            List<String> aliases = new ArrayList<>();
            s.path("aliases").forEach(a -> aliases.add(a.asText()));
            if (!aliases.isEmpty()) {
                t.append(" (").append(String.join(", ", aliases)).append(')');
            }
            t.append(". ").append(s.path("summary").asText());
            String t1 = t.length() > 1500 ? t.substring(0, 1500) : t.toString();
            for (JsonNode sec : s.path("sections")) {
                if (t.length() >= 1500) {
                    break;
                }
                t.append(' ').append(sec.path("body").asText());
            }
            String t2 = t.length() > 1500 ? t.substring(0, 1500) : t.toString();
            // Stories: a signal's story key is in the document; the page's lexical ids
            // stand for their own story in this sweep (one result per story there).
            docs.add(new Doc(s.path("id").asText(), s.path("id").asText(), s.path("kind").asText(), t1, t2));
        }
        return docs;
    }

}
