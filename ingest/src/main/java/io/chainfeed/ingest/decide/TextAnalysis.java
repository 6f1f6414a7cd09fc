package io.chainfeed.ingest.decide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/**
 * Splits one field of text into sentences (the JDK's English sentence breaks) and words
 * (Lucene's {@link StandardTokenizer}, Unicode UAX#29 word breaks), each word lower-cased
 * and Porter-stemmed, with its offsets in the field. Thread-safe.
 */
public final class TextAnalysis {

    private static final Analyzer ANALYZER = new Analyzer() {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            StandardTokenizer source = new StandardTokenizer();
            TokenStream s = new PorterStemFilter(new LowerCaseFilter(source));
            return new TokenStreamComponents(source, s);
        }
    };

    private static final ThreadLocal<BreakIterator> SENTENCES = ThreadLocal
        .withInitial(() -> BreakIterator.getSentenceInstance(Locale.ENGLISH));

    private TextAnalysis() {
    }

    /**
     * One word of a field.
     *
     * @param stem lower-cased Porter stem ({@code shortag})
     * @param lower the word as written, lower-cased ({@code shortages})
     * @param start offset of its first char in the field
     * @param end offset one past its last char
     * @param sentence 0-based sentence of the field it is in
     */
    public record Token(String stem, String lower, int start, int end, int sentence) {
    }

    /**
     * @param text a field (headline or body)
     * @return its words in order
     */
    public static List<Token> tokens(String text) {
        List<Token> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        int[] sentenceEnds = sentenceEnds(text);
        int sentence = 0;
        try (TokenStream ts = ANALYZER.tokenStream("f", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                int start = off.startOffset();
                while (sentence < sentenceEnds.length - 1 && start >= sentenceEnds[sentence]) {
                    sentence++;
                }
                out.add(new Token(term.toString(),
                        text.substring(start, off.endOffset()).toLowerCase(Locale.ROOT).replace('\u2019', '\''), start,
                        off.endOffset(), sentence));
            }
            ts.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * @param text a phrase of a lexicon
     * @return the stems of its words, as {@link #tokens} would give them
     */
    public static List<String> stems(String text) {
        return tokens(text).stream().map(Token::stem).toList();
    }

    /**
     * @param text a field
     * @return the end offset of each sentence, in order (the last is the text's length)
     */
    public static int[] sentenceEnds(String text) {
        BreakIterator it = SENTENCES.get();
        it.setText(text);
        List<Integer> ends = new ArrayList<>();
        it.first();
        for (int end = it.next(); end != BreakIterator.DONE; end = it.next()) {
            ends.add(end);
        }
        if (ends.isEmpty()) {
            ends.add(text.length());
        }
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }

}
