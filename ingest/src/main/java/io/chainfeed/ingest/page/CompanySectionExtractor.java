package io.chainfeed.ingest.page;

import io.chainfeed.avro.CompanyMention;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.page.PageBlocks.Block;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "Companies on this part of the chain" section: the company line(s), split into
 * names and tickers with the help of the tickers the prose writes in parentheses, and the
 * page's own "research, not advice" line, which replaces
 * {@link TermContent#DEFAULT_DISCLAIMER}.
 */
final class CompanySectionExtractor {

    /** Heading of the section, as refusals name it. */
    static final String HEADING = "Companies on this part of the chain";

    private static final Pattern EXCHANGE_PREFIX = Pattern.compile("^[A-Za-z][A-Za-z .]{0,24}:\\s*");

    /**
     * @param companies the companies, in page order
     * @param disclaimer the page's disclaimer, or the default one
     */
    record Companies(List<CompanyMention> companies, String disclaimer) {
    }

    private final CompanyLineSplitter splitter;

    /**
     * @param splitter splits one company line into names and tickers
     */
    CompanySectionExtractor(CompanyLineSplitter splitter) {
        this.splitter = splitter;
    }

    /**
     * @param page the page's parts
     * @param prose definition, "What it means" and "Why it matters", one per line
     * @param refusal where a missing company line or a line that cannot be split is
     * reported
     * @return the companies and the disclaimer; none and the default without the section
     */
    Companies extract(GlossaryPageLayout page, String prose, ParseRefusal refusal) {
        List<CompanyMention> companies = new ArrayList<>();
        String disclaimer = TermContent.DEFAULT_DISCLAIMER;
        if (page.has(GlossaryPageLayout.Part.COMPANIES)) {
            List<String> lines = new ArrayList<>();
            boolean seenDisclaimer = false;
            for (Block b : page.part(GlossaryPageLayout.Part.COMPANIES)) {
                for (String line : b.lines()) {
                    if (PageText.isDisclaimer(line)) {
                        if (!seenDisclaimer) {
                            disclaimer = PageText.plain(line);
                        }
                        seenDisclaimer = true;
                    }
                    else if (!seenDisclaimer) {
                        lines.add(line);
                    }
                }
            }
            if (lines.isEmpty()) {
                refusal.missing("company line under \"" + HEADING + "\"");
            }
            Map<String, String> mentions = mentionedTickers(prose);
            List<String> failures = new ArrayList<>();
            for (String line : lines) {
                Optional<List<CompanyMention>> split = splitter.split(line, mentions);
                if (split.isPresent()) {
                    companies.addAll(split.get());
                }
                else {
                    failures.add(PageText.plain(line));
                }
            }
            refusal.report("company/ticker split: ", failures);
        }
        return new Companies(companies, disclaimer);
    }

    /**
     * Tickers the prose writes in parentheses ("(ANET)", "(NASDAQ: MU)", "(2345.TW)"),
     * each with the name before it.
     */
    static Map<String, String> mentionedTickers(String prose) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = PageText.PAREN.matcher(prose);
        while (m.find()) {
            String name = null;
            for (String part : m.group(1).split("[,;/]|\\s+and\\s+|\\s+or\\s+")) {
                String ticker = EXCHANGE_PREFIX.matcher(part.strip()).replaceFirst("").strip();
                if (PageText.TICKER.matcher(ticker).matches()) {
                    if (name == null) {
                        name = nameBefore(prose, m.start());
                    }
                    String known = out.get(ticker);
                    if (known == null || known.isEmpty()) {
                        out.put(ticker, name);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The capitalised words right before a parenthesis: "cloud operator Oracle (" gives
     * "Oracle".
     */
    private static String nameBefore(String prose, int paren) {
        String before = prose.substring(Math.max(0, paren - PageText.WINDOW), paren).stripTrailing();
        String[] tokens = before.split("\\s+");
        Deque<String> name = new ArrayDeque<>();
        for (int t = tokens.length - 1; t >= 0 && name.size() < 6; t--) {
            String tok = tokens[t];
            if (tok.isEmpty() || (!name.isEmpty() && tok.matches(".*[,;:.!?]"))) {
                break;
            }
            boolean named = tok.codePoints().anyMatch(Character::isUpperCase) || Character.isDigit(tok.charAt(0));
            boolean connector = tok.equals("&") || tok.equals("of") || tok.equals("de");
            if (named || (connector && !name.isEmpty())) {
                name.addFirst(tok);
            }
            else {
                break;
            }
        }
        while (!name.isEmpty()
                && (name.peekFirst().equals("&") || name.peekFirst().equals("of") || name.peekFirst().equals("de"))) {
            name.removeFirst();
        }
        return String.join(" ", name).replaceAll("^[\"'\u201C\u2018(\\[]+", "");
    }

}
