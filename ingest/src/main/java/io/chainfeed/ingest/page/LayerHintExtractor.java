package io.chainfeed.ingest.page;

import io.chainfeed.avro.ChainLayer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chain layer a page's prose names: a reference layer (name, alias or id,
 * case-insensitive, whole words), preferring mentions that say "layer", then the
 * earliest; else the first raw "&lt;word&gt; layer" phrase; else none.
 */
final class LayerHintExtractor {

    private static final Pattern FOLLOWED_BY_LAYER = Pattern.compile("\\s+layers?(?![\\p{L}\\p{N}])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Pattern RAW_LAYER = Pattern.compile(
            "(?<![\\p{L}\\p{N}\\-])(\\p{L}[\\p{L}\\p{N}\\-]*)\\s+(layer)(?![\\p{L}\\p{N}])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Set<String> LAYER_STOPWORDS = Set.of("the", "a", "an", "this", "that", "these", "those",
            "each", "every", "one", "which", "same", "other", "another", "any", "its", "their", "our", "your", "whole",
            "entire", "next", "first", "last", "single", "new", "given", "that's");

    private record LayerTerm(String id, Pattern pattern, boolean namesLayer) {
    }

    private final List<LayerTerm> layerTerms = new ArrayList<>();

    /**
     * @param layers the reference layers, whose names, aliases and ids the prose may use
     */
    LayerHintExtractor(List<ChainLayer> layers) {
        for (ChainLayer layer : layers) {
            String id = layer.getId().toString();
            List<String> names = new ArrayList<>();
            names.add(layer.getName().toString());
            layer.getAliases().forEach(a -> names.add(a.toString()));
            names.add(id);
            for (String name : names) {
                String key = PageText.key(name);
                if (key.isEmpty()) {
                    continue;
                }
                String[] words = key.split(" ");
                StringBuilder regex = new StringBuilder("(?<![\\p{L}\\p{N}])");
                for (int i = 0; i < words.length; i++) {
                    regex.append(i == 0 ? "" : "[\\s\\-\u2010\u2011]+").append(Pattern.quote(words[i]));
                }
                regex.append("(?![\\p{L}\\p{N}])");
                String last = words[words.length - 1];
                layerTerms.add(new LayerTerm(id,
                        Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
                        last.equals("layer") || last.equals("layers")));
            }
        }
    }

    /**
     * @param prose definition, "What it means" and "Why it matters", one per line
     * @return a reference layer's id, a raw "&lt;word&gt; layer" phrase, or null
     */
    String layerHint(String prose) {
        String bestId = null;
        int bestRank = Integer.MAX_VALUE;
        int bestStart = Integer.MAX_VALUE;
        int bestLength = 0;
        for (LayerTerm term : layerTerms) {
            Matcher m = term.pattern().matcher(prose);
            while (m.find()) {
                boolean layerish = term.namesLayer()
                        || FOLLOWED_BY_LAYER.matcher(prose).region(m.end(), prose.length()).lookingAt();
                int rank = layerish ? 0 : 1;
                int length = m.end() - m.start();
                if (rank < bestRank || (rank == bestRank
                        && (m.start() < bestStart || (m.start() == bestStart && length > bestLength)))) {
                    bestId = term.id();
                    bestRank = rank;
                    bestStart = m.start();
                    bestLength = length;
                }
            }
        }
        if (bestId != null) {
            return bestId;
        }
        Matcher raw = RAW_LAYER.matcher(prose);
        while (raw.find()) {
            if (!LAYER_STOPWORDS.contains(PageText.fold(raw.group(1)))) {
                return raw.group(1) + " " + raw.group(2);
            }
        }
        return null;
    }

}
