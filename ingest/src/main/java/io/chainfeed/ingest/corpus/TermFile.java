package io.chainfeed.ingest.corpus;

import io.chainfeed.avro.Section;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.chain.reference.YamlFields;
import io.chainfeed.ingest.Slugs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One glossary term file split into its YAML front matter and its Markdown sections.
 *
 * <p>
 * Layout: a line {@code ---}, the front matter, a line {@code ---}, then the body. The
 * body is a series of {@code ## Heading} sections; nothing but blank lines may come
 * before the first one. A section's key is fixed for the two standard headings
 * ({@code What it means} → {@code what_it_means}, {@code Why it matters to investors} →
 * {@code why_it_matters}) and is otherwise the heading as a slug with underscores. Inside
 * a section, lines of one paragraph are joined with a space (Markdown soft breaks),
 * paragraphs are separated by a blank line, and list items ({@code - }, {@code * },
 * {@code 1. }) keep their own line.
 *
 * @param frontMatter the front matter
 * @param sections the sections in file order, headings as written
 */
record TermFile(YamlFields frontMatter, List<Section> sections) {

    /** Section key of "What it means". */
    static final String WHAT_IT_MEANS = "what_it_means";

    /** Section key of "Why it matters to investors". */
    static final String WHY_IT_MATTERS = "why_it_matters";

    private static final Map<String, String> STANDARD_KEYS = Map.of("what it means", WHAT_IT_MEANS, "why it matters",
            WHY_IT_MATTERS, "why it matters to investors", WHY_IT_MATTERS);

    private static final Pattern LIST_ITEM = Pattern.compile("^([-*+]|\\d+[.)])\\s.*");

    /**
     * Splits a term file.
     * @param file name used in errors
     * @param text the whole file
     * @return the front matter and the sections
     * @throws CorpusException if the front-matter fences are missing, the front matter is
     * not a YAML mapping, text precedes the first heading, a heading is empty or
     * repeated, or a section has no text
     */
    static TermFile parse(String file, String text) {
        String normalized = text.replace("\r\n", "\n").replace('\r', '\n');
        if (normalized.startsWith("\uFEFF")) {
            normalized = normalized.substring(1);
        }
        List<String> lines = List.of(normalized.split("\n", -1));
        if (lines.isEmpty() || !lines.get(0).strip().equals("---")) {
            throw new CorpusException(file, null, "must start with a '---' line opening the front matter");
        }
        int close = -1;
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("---")) {
                close = i;
                break;
            }
        }
        if (close < 0) {
            throw new CorpusException(file, null, "the front matter is not closed by a '---' line");
        }
        YamlFields frontMatter = YamlFields.parse(file, String.join("\n", lines.subList(1, close)), 1);
        return new TermFile(frontMatter, sections(file, lines.subList(close + 1, lines.size())));
    }

    private static List<Section> sections(String file, List<String> body) {
        List<Section> sections = new ArrayList<>();
        String heading = null;
        List<String> current = new ArrayList<>();
        for (String line : body) {
            if (line.startsWith("## ") || line.equals("##")) {
                if (heading != null) {
                    sections.add(section(file, heading, current, sections));
                }
                heading = line.substring(2).strip();
                if (heading.isEmpty()) {
                    throw new CorpusException(file, "body", "a '##' heading has no text");
                }
                current = new ArrayList<>();
            }
            else if (heading == null) {
                if (!line.isBlank()) {
                    throw new CorpusException(file, "body",
                            "text before the first '## ' heading: \"" + line.strip() + "\"");
                }
            }
            else {
                current.add(line);
            }
        }
        if (heading != null) {
            sections.add(section(file, heading, current, sections));
        }
        return sections;
    }

    private static Section section(String file, String heading, List<String> lines, List<Section> earlier) {
        String key = STANDARD_KEYS.getOrDefault(heading.toLowerCase(Locale.ROOT),
                Slugs.slugify(heading).replace('-', '_'));
        if (key.isEmpty()) {
            throw new CorpusException(file, "body", "heading \"" + heading + "\" has no letter or digit");
        }
        for (Section s : earlier) {
            if (s.getKey().equals(key)) {
                throw new CorpusException(file, "body", "section \"" + heading + "\" appears twice (key " + key + ")");
            }
        }
        String text = paragraphs(lines);
        if (text.isEmpty()) {
            throw new CorpusException(file, "body", "section \"" + heading + "\" has no text");
        }
        return Section.newBuilder().setKey(key).setHeading(heading).setBody(text).build();
    }

    private static String paragraphs(List<String> lines) {
        StringBuilder out = new StringBuilder();
        boolean inParagraph = false;
        boolean pendingBreak = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty()) {
                pendingBreak = pendingBreak || inParagraph;
                inParagraph = false;
                continue;
            }
            if (pendingBreak) {
                out.append("\n\n");
                pendingBreak = false;
            }
            else if (inParagraph) {
                out.append(LIST_ITEM.matcher(line).matches() ? "\n" : " ");
            }
            out.append(line);
            inParagraph = true;
        }
        return out.toString();
    }
}
