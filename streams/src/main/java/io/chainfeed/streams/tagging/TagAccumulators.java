package io.chainfeed.streams.tagging;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.TermTag;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@link Tagger} gathers about one company, term or layer while it reads a text:
 * every piece of evidence once, the highest confidence, whether it is a primary subject;
 * then the tag of the read.
 */
final class TagAccumulators {

    private TagAccumulators() {
    }

    /** Evidence shared by company and term accumulators. */
    abstract static class Acc {

        double confidence;

        boolean primary;

        boolean foundInText;

        int textMentions;

        final Set<Evidence> evidence = new LinkedHashSet<>();

        void add(double c, boolean isPrimary, Evidence e) {
            confidence = Math.max(confidence, c);
            primary |= isPrimary;
            if (e.getStart() >= 0) {
                foundInText = true;
                if (evidence.add(e)) {
                    textMentions++;
                }
            }
            else {
                evidence.add(e);
            }
        }

        /** Named three times or more in the body: a subject, not a passing mention. */
        void settlePrimary() {
            primary |= textMentions >= 3;
        }

    }

    static final class CompanyAcc extends Acc {

        final String id;

        final String name;

        final String symbol;

        final String mic;

        String primaryLayer;

        CompanyAcc(String id, String name, String symbol, String mic) {
            this.id = id;
            this.name = name;
            this.symbol = symbol;
            this.mic = mic;
        }

        CompanyTag toTag() {
            return CompanyTag.newBuilder()
                .setId(id)
                .setName(name)
                .setSymbol(symbol)
                .setMic(mic)
                .setConfidence(confidence)
                .setPrimary(primary)
                .setEvidence(List.copyOf(evidence))
                .build();
        }

    }

    static final class TermAcc extends Acc {

        final String slug;

        final String title;

        final String summary;

        TermAcc(String slug, String title, String summary) {
            this.slug = slug;
            this.title = title;
            this.summary = summary == null ? "" : summary;
        }

        TermTag toTag() {
            return TermTag.newBuilder()
                .setSlug(slug)
                .setTitle(title)
                .setSummary(summary)
                .setConfidence(confidence)
                .setEvidence(List.copyOf(evidence))
                .build();
        }

    }

    static final class LayerAcc {

        final String id;

        final String name;

        double confidence;

        boolean primary;

        final Set<Evidence> evidence = new LinkedHashSet<>();

        LayerAcc(String id, String name) {
            this.id = id;
            this.name = name;
        }

        void add(double c, boolean isPrimary, Evidence e) {
            confidence = Math.max(confidence, c);
            primary |= isPrimary;
            evidence.add(e);
        }

        LayerTag toTag() {
            return LayerTag.newBuilder()
                .setId(id)
                .setName(name)
                .setConfidence(confidence)
                .setPrimary(primary)
                .setEvidence(List.copyOf(evidence))
                .build();
        }

    }

}
