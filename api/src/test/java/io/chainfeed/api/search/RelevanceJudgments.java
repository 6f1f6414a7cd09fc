package io.chainfeed.api.search;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A judged query set and the ranking metrics computed over it: nDCG@10, mean reciprocal
 * rank and the share of queries whose first answer is a best one.
 *
 * <p>
 * The file format ({@code src/test/resources/search/relevance/*.txt}): {@code #} starts a
 * comment line, {@code q: <text>} starts a query, optional {@code tag: <word>} lines
 * right after it mark the query (such as {@code paraphrase}, see {@link #withTag}), and
 * each following {@code <grade> <id>} line grades one answer 0-2.
 *
 * <p>
 * nDCG uses the exponential gain {@code 2^grade - 1} discounted by
 * {@code log2(rank + 1)}, and its ideal DCG is taken over <em>every</em> judged answer of
 * the query (the best ten grades, whether search returned them or not). Taking the ideal
 * over the returned list instead would let a short list that misses the best answers
 * score 1.0, the pitfall discussed in Elasticsearch pull request #154362.
 *
 * @param queries the judged queries, in file order
 */
public record RelevanceJudgments(List<Query> queries) {
    /** Rank cut-off of nDCG and of the reciprocal rank. */
    public static final int K = 10;

    /**
     * The tag of a query that says its idea in other words than its best answers do: it
     * shares no content word with the title, aliases and plain-English text of any answer
     * graded 2, so only ranking by meaning can find them.
     */
    public static final String PARAPHRASE = "paraphrase";

    private static final Pattern TAG = Pattern.compile("[a-z][a-z0-9-]*");

    /**
     * One judged query.
     *
     * @param text the text as a researcher types it
     * @param grades answer id to grade (1 or 2; unlisted answers are 0), in file order
     * @param tags the words of its {@code tag:} lines (lower-case letters, digits and
     * dashes), empty when it has none; {@link #PARAPHRASE} marks a paraphrase query
     */
    public record Query(String text, Map<String, Integer> grades, Set<String> tags) {
        public Query {
            tags = Set.copyOf(tags);
        }

        /**
         * A query without tags.
         * @param text the text as a researcher types it
         * @param grades answer id to grade
         */
        public Query(String text, Map<String, Integer> grades) {
            this(text, grades, Set.of());
        }

        /**
         * @return the highest grade judged for the query
         */
        public int best() {
            return grades.values().stream().max(Integer::compare).orElse(0);
        }
    }

    /**
     * The figures of one query.
     *
     * @param query the query
     * @param ranked the ids search answered, best first (at most {@link #K} are scored)
     * @param ndcg DCG@10 of the answer over the ideal DCG@10 of the judgments
     * @param rr 1 / rank of the first answer graded 1 or more, 0 when none is in the
     * first {@link #K}
     * @param bestFirst whether the first answer has the query's highest grade
     */
    public record Scored(Query query, List<String> ranked, double ndcg, double rr, boolean bestFirst) {
        /**
         * @return whether search answered nothing
         */
        public boolean empty() {
            return ranked.isEmpty();
        }
    }

    /**
     * The figures of a set.
     *
     * @param queries per query
     * @param ndcg mean nDCG@10
     * @param mrr mean reciprocal rank
     * @param bestFirst share of queries whose first answer is a best one, 0..1
     * @param empty how many queries got no answer
     */
    public record Report(List<Scored> queries, double ndcg, double mrr, double bestFirst, long empty) {
        /**
         * @return one line: the three figures and the count of empty answers
         */
        public String summary() {
            return String.format(Locale.ROOT, "%d queries: nDCG@10 %.3f, MRR %.3f, best answer first %.1f%%, empty %d",
                    queries.size(), ndcg, mrr, bestFirst * 100, empty);
        }

        /**
         * @return one line per query, worst nDCG first: the figures, the query and the
         * first answers
         */
        public String details() {
            StringBuilder out = new StringBuilder();
            queries.stream()
                .sorted(Comparator.comparingDouble(Scored::ndcg))
                .forEach(s -> out.append(String.format(Locale.ROOT, "%.3f rr %.2f %s %-45s %s%n", s.ndcg(), s.rr(),
                        s.bestFirst() ? "best " : "other", "'" + s.query().text() + "'",
                        s.ranked()
                            .stream()
                            .limit(5)
                            .map(id -> id + "=" + s.query().grades().getOrDefault(id, 0))
                            .toList())));
            return out.toString();
        }
    }

    /**
     * @param resource a classpath resource in the format above
     * @return its queries
     * @throws IllegalArgumentException on a malformed line, a grade outside 1-2, a query
     * without judgments, a query or answer judged twice, or a {@code tag:} line that does
     * not follow a {@code q:} line (or another tag) or whose tag is not one word of
     * lower-case letters, digits and dashes
     */
    public static RelevanceJudgments load(String resource) {
        try (InputStream in = RelevanceJudgments.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param lines the lines of a judged set
     * @return its queries
     * @throws IllegalArgumentException as {@link #load}
     */
    public static RelevanceJudgments parse(List<String> lines) {
        List<Query> out = new ArrayList<>();
        String text = null;
        Map<String, Integer> grades = null;
        Set<String> tags = null;
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("q:")) {
                add(out, text, grades, tags);
                text = line.substring(2).strip();
                grades = new LinkedHashMap<>();
                tags = new TreeSet<>();
                continue;
            }
            if (line.startsWith("tag:")) {
                String tag = line.substring(4).strip();
                if (grades == null || !grades.isEmpty()) {
                    throw new IllegalArgumentException(
                            "line " + n + ": a 'tag:' line goes right after its 'q:' line: " + raw);
                }
                if (!TAG.matcher(tag).matches() || !tags.add(tag)) {
                    throw new IllegalArgumentException("line " + n
                            + ": expected 'tag: <word>' (lower-case letters, digits, dashes), once: " + raw);
                }
                continue;
            }
            String[] parts = line.split("\\s+");
            if (grades == null || parts.length != 2 || !parts[0].matches("[12]")) {
                throw new IllegalArgumentException("line " + n + ": expected '<1|2> <id>' after a 'q:' line: " + raw);
            }
            if (grades.put(parts[1], Integer.parseInt(parts[0])) != null) {
                throw new IllegalArgumentException("line " + n + ": " + parts[1] + " judged twice for '" + text + "'");
            }
        }
        add(out, text, grades, tags);
        if (out.stream().map(q -> q.text().toLowerCase(Locale.ROOT)).distinct().count() != out.size()) {
            throw new IllegalArgumentException("a query is judged twice");
        }
        return new RelevanceJudgments(List.copyOf(out));
    }

    private static void add(List<Query> out, String text, Map<String, Integer> grades, Set<String> tags) {
        if (text == null) {
            return;
        }
        if (text.isEmpty() || grades.isEmpty()) {
            throw new IllegalArgumentException("query '" + text + "' has no judged answer");
        }
        out.add(new Query(text, Map.copyOf(grades), tags));
    }

    /**
     * The queries that carry a tag, to measure them apart: {@code withTag(PARAPHRASE)}
     * gives the paraphrase queries, whose figures say how well ranking finds an answer by
     * its meaning rather than by its words.
     * @param tag a tag, such as {@link #PARAPHRASE}
     * @return a set of the queries with that tag, in file order (empty when none has it)
     */
    public RelevanceJudgments withTag(String tag) {
        return new RelevanceJudgments(queries.stream().filter(q -> q.tags().contains(tag)).toList());
    }

    /**
     * The queries that do not carry a tag: {@code withoutTag(PARAPHRASE)} gives the
     * queries that may use their answers' own words, the kind issue 29's floors were set
     * on.
     * @param tag a tag, such as {@link #PARAPHRASE}
     * @return a set of the other queries, in file order
     */
    public RelevanceJudgments withoutTag(String tag) {
        return new RelevanceJudgments(queries.stream().filter(q -> !q.tags().contains(tag)).toList());
    }

    /**
     * Scores the answers of every query.
     * @param search the ids search answers for a query text, best first
     * @return the figures
     */
    public Report measure(Function<String, List<String>> search) {
        List<Scored> scored = new ArrayList<>();
        for (Query q : queries) {
            scored.add(score(q, search.apply(q.text())));
        }
        double ndcg = scored.stream().mapToDouble(Scored::ndcg).average().orElse(0);
        double mrr = scored.stream().mapToDouble(Scored::rr).average().orElse(0);
        double best = scored.stream().filter(Scored::bestFirst).count() / (double) Math.max(1, scored.size());
        return new Report(List.copyOf(scored), ndcg, mrr, best, scored.stream().filter(Scored::empty).count());
    }

    /**
     * @param q a judged query
     * @param ranked the ids search answered, best first; a repeated id counts once, where
     * it first appears
     * @return its figures
     */
    public static Scored score(Query q, List<String> ranked) {
        List<String> distinct = ranked.stream().distinct().toList();
        double dcg = 0;
        double rr = 0;
        for (int i = 0; i < Math.min(K, distinct.size()); i++) {
            int grade = q.grades().getOrDefault(distinct.get(i), 0);
            dcg += gain(grade, i);
            if (grade > 0 && rr == 0) {
                rr = 1.0 / (i + 1);
            }
        }
        List<Integer> ideal = q.grades().values().stream().sorted(Comparator.reverseOrder()).limit(K).toList();
        double idcg = 0;
        for (int i = 0; i < ideal.size(); i++) {
            idcg += gain(ideal.get(i), i);
        }
        boolean bestFirst = !distinct.isEmpty() && q.grades().getOrDefault(distinct.get(0), 0) == q.best();
        return new Scored(q, distinct, idcg == 0 ? 0 : dcg / idcg, rr, bestFirst);
    }

    private static double gain(int grade, int index) {
        return (Math.pow(2, grade) - 1) / (Math.log(index + 2) / Math.log(2));
    }
}
