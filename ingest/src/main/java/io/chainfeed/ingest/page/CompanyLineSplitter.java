package io.chainfeed.ingest.page;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.Listing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Splits a line where company names and tickers run together ("Arista NetworksANETOracle
 * CorporationORCL") into (name, ticker) pairs.
 *
 * <p>
 * Dynamic programming over the line: each segment is a non-empty name followed by a
 * ticker candidate, and the split with the highest total score covering the whole line
 * wins. Ticker candidates, best first: tickers of reference companies and tickers the
 * page mentions in parentheses; a run between two HTML element boundaries that looks like
 * a ticker; and, last, the fallback for tickers never seen (the maximal run of
 * {@code [A-Z0-9.]} glued to the name, where a final capital followed by a lower-case
 * letter starts the next name). Names score higher when they match a reference company
 * (name or alias) that owns the ticker, or the name the page writes before that ticker's
 * parentheses. Immutable and thread-safe.
 */
final class CompanyLineSplitter {

    /**
     * Longest line considered; longer lines are refused rather than risk quadratic work.
     */
    static final int MAX_LINE = 8_000;

    private static final int MAX_NAME = 160;

    private static final int NEG = Integer.MIN_VALUE / 4;

    private enum TickerKind {

        KNOWN, MARKED, FALLBACK

    }

    private record Candidate(int end, String ticker, TickerKind kind) {
    }

    private record Step(int from, int nameStart, int nameEnd, Candidate candidate) {
    }

    private final Map<String, Set<Integer>> owners = new HashMap<>();

    private final Map<String, Set<Integer>> companiesByKey = new HashMap<>();

    private final List<List<String>> keysByCompany = new ArrayList<>();

    CompanyLineSplitter(List<Company> companies) {
        for (int i = 0; i < companies.size(); i++) {
            Company c = companies.get(i);
            List<String> keys = new ArrayList<>();
            addKey(keys, c.getName());
            c.getAliases().forEach(a -> addKey(keys, a));
            for (String k : keys) {
                companiesByKey.computeIfAbsent(k, x -> new HashSet<>()).add(i);
            }
            keysByCompany.add(List.copyOf(keys));
            for (Listing l : c.getListings()) {
                addOwner(l.getDisplaySymbol(), i);
                addOwner(l.getSymbol(), i);
            }
        }
    }

    private static void addKey(List<String> keys, CharSequence name) {
        if (name != null) {
            String k = PageText.key(name.toString());
            if (!k.isEmpty() && !keys.contains(k)) {
                keys.add(k);
            }
        }
    }

    private void addOwner(CharSequence symbol, int company) {
        if (symbol != null) {
            String s = symbol.toString().trim();
            if (!s.isEmpty()) {
                owners.computeIfAbsent(s, x -> new HashSet<>()).add(company);
            }
        }
    }

    /**
     * Splits one line.
     * @param line the line, possibly with {@link PageText#MARK} boundaries
     * @param mentions tickers the page mentions in parentheses, each with the name
     * written before it (empty when none could be read), in page order
     * @return the companies in line order, or empty when no split covers the whole line
     */
    Optional<List<CompanyMention>> split(String line, Map<String, String> mentions) {
        StringBuilder sb = new StringBuilder(line.length());
        boolean[] marks = new boolean[line.length() + 1];
        boolean hasMarks = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == PageText.MARK) {
                marks[sb.length()] = true;
                hasMarks = true;
            }
            else {
                sb.append(c);
            }
        }
        String s = sb.toString();
        int n = s.length();
        if (n == 0 || n > MAX_LINE) {
            return Optional.empty();
        }

        Map<String, Boolean> tickers = new LinkedHashMap<>();
        owners.keySet().forEach(t -> tickers.put(t, Boolean.TRUE));
        mentions.keySet().forEach(t -> tickers.putIfAbsent(t, Boolean.TRUE));
        List<List<Candidate>> candidates = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            candidates.add(candidatesAt(s, j, marks, tickers.keySet()));
        }

        int[] best = new int[n + 1];
        Step[] back = new Step[n + 1];
        Arrays.fill(best, NEG);
        best[0] = 0;
        for (int i = 0; i < n; i++) {
            if (best[i] == NEG) {
                continue;
            }
            int start = i;
            while (start < n && s.charAt(start) == ' ') {
                start++;
            }
            for (int j = start + 1; j < n && j - start <= MAX_NAME; j++) {
                for (Candidate cand : candidates.get(j)) {
                    String name = s.substring(start, j).strip();
                    if (!plausibleName(name)) {
                        continue;
                    }
                    int score = best[i] + score(name, cand, mentions, s, start, j, marks, hasMarks);
                    if (score > best[cand.end()]) {
                        best[cand.end()] = score;
                        back[cand.end()] = new Step(i, start, j, cand);
                    }
                }
            }
        }
        if (best[n] == NEG) {
            return Optional.empty();
        }
        List<CompanyMention> out = new ArrayList<>();
        for (int at = n; at > 0;) {
            Step step = back[at];
            out.add(new CompanyMention(s.substring(step.nameStart(), step.nameEnd()).strip(),
                    step.candidate().ticker()));
            at = step.from();
        }
        Collections.reverse(out);
        return Optional.of(out);
    }

    private static List<Candidate> candidatesAt(String s, int j, boolean[] marks, Set<String> tickers) {
        char first = s.charAt(j);
        if (j == 0 || !(isUpper(first) || isDigit(first))) {
            return List.of();
        }
        List<Candidate> out = new ArrayList<>(2);
        Set<String> seen = new HashSet<>();
        for (String t : tickers) {
            if (s.startsWith(t, j) && seen.add(t)) {
                out.add(new Candidate(j + t.length(), t, TickerKind.KNOWN));
            }
        }
        if (marks[j]) {
            int e = j + 1;
            while (e < s.length() && !marks[e]) {
                e++;
            }
            String token = s.substring(j, e);
            if (PageText.TICKER.matcher(token).matches() && seen.add(token)) {
                out.add(new Candidate(e, token, TickerKind.MARKED));
            }
        }
        char prev = s.charAt(j - 1);
        if (!isRunChar(prev) && prev != ' ') {
            int e = j;
            while (e < s.length() && isRunChar(s.charAt(e))) {
                e++;
            }
            if (e < s.length() && Character.isLowerCase(s.charAt(e)) && e - 1 > j && isUpper(s.charAt(e - 1))) {
                e--;
            }
            while (e > j && s.charAt(e - 1) == '.') {
                e--;
            }
            String token = s.substring(j, e);
            if (e > j && PageText.TICKER.matcher(token).matches() && seen.add(token)) {
                out.add(new Candidate(e, token, TickerKind.FALLBACK));
            }
        }
        out.sort((a, b) -> Integer.compare(b.end(), a.end()));
        return out;
    }

    private int score(String name, Candidate cand, Map<String, String> mentions, String s, int start, int j,
            boolean[] marks, boolean hasMarks) {
        String key = PageText.key(name);
        Set<Integer> exact = companiesByKey.getOrDefault(key, Set.of());
        Set<Integer> own = owners.getOrDefault(cand.ticker(), Set.of());
        boolean known = false;
        int score;
        if (exact.stream().anyMatch(own::contains)) {
            score = 10;
            known = true;
        }
        else if (own.stream()
            .anyMatch(c -> keysByCompany.get(c).stream().anyMatch(k -> PageText.wordPrefixOrSuffix(k, key)))) {
            score = 9;
            known = true;
        }
        else {
            int tickerScore = switch (cand.kind()) {
                case KNOWN -> 5;
                case MARKED -> 3;
                case FALLBACK -> 2;
            };
            String mentionedName = cand.kind() == TickerKind.KNOWN ? mentions.get(cand.ticker()) : null;
            String mentionedKey = mentionedName == null ? "" : PageText.key(mentionedName);
            int nameScore;
            if (!mentionedKey.isEmpty() && mentionedKey.equals(key)) {
                nameScore = 4;
            }
            else if (PageText.wordPrefixOrSuffix(mentionedKey, key)) {
                nameScore = 3;
            }
            else if (!exact.isEmpty()) {
                nameScore = 1;
            }
            else {
                nameScore = 0;
            }
            known = nameScore > 0;
            score = tickerScore + nameScore;
        }
        if (!known) {
            if (Character.isLowerCase(name.charAt(0))) {
                score -= 2;
            }
            int last = name.length() - 1;
            if (last > 0 && isUpper(name.charAt(last)) && Character.isLowerCase(name.charAt(last - 1))) {
                score -= 2;
            }
        }
        int end = cand.end();
        boolean spaceBefore = s.charAt(j - 1) == ' ';
        boolean spaceAfter = end < s.length() && s.charAt(end) == ' ';
        if (spaceBefore && spaceAfter) {
            score -= 1;
        }
        if (hasMarks) {
            if (!marks[j] && !spaceBefore) {
                score -= 2;
            }
            if (start > 0 && !marks[start] && s.charAt(start - 1) != ' ') {
                score -= 2;
            }
            for (int p = start + 1; p < end; p++) {
                if (marks[p] && p != j) {
                    score -= 1;
                }
            }
        }
        return score;
    }

    private static boolean plausibleName(String name) {
        if (name.isEmpty() || !Character.isLetterOrDigit(name.charAt(0))) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isLetter(name.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isRunChar(char c) {
        return isUpper(c) || isDigit(c) || c == '.';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

}
